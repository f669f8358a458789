import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Team } from '../../api/types.js';
import { Alert, Dialog, EmptyState, ItemTable, Loaded, PageHeader, TextArea, TextField } from '../../components/ui.js';
import { useSettledSearch, useTitle } from '../../hooks.js';
import { errorText } from '../../lib/problems.js';
import { PersonPicker } from '../users/components/PersonPicker.js';
import { useAddMembers, useCreateTeam, useDeleteTeam, useRemoveMember, useSetMemberRole, useTeamMembers, useTeams, useUpdateTeam } from './queries.js';
import './styles.css';

/** Teams (docs/policies.md#teams), for admins: list, create, edit, members with their roles. */
export function TeamsPage() {
  const { t } = useTranslation('teams');
  useTitle(t('title'));
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(0);
  const search = useSettledSearch(query, () => setPage(0));
  const [dialog, setDialog] = useState<{ kind: 'new' } | { kind: 'edit' | 'members' | 'delete'; team: Team }>();
  const [notice, setNotice] = useState<string>();
  const teams = useTeams(page, search);
  const done = (message: string) => {
    setDialog(undefined);
    setNotice(message);
  };

  return (
    <div className="page">
      <PageHeader title={t('title')}>
        <button type="button" className="button-primary" onClick={() => setDialog({ kind: 'new' })}>
          {t('add')}
        </button>
      </PageHeader>
      {notice && (
        <Alert kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Alert>
      )}
      <div className="toolbar">
        <TextField label={t('search')} type="search" value={query} onChange={(event) => setQuery(event.target.value)} placeholder={t('common:fields.name')} />
      </div>
      <Loaded query={teams} label={t('loading')}>
        {(result) =>
          result.content.length === 0 ? (
            <EmptyState>{search ? t('noMatch') : t('none')}</EmptyState>
          ) : (
            <ItemTable
              columns={[t('common:fields.name'), t('columns.members'), t('columns.filledFrom')]}
              page={result}
              onPage={setPage}
              label={t('pages')}
              cells={(team) => (
                <>
                  <td data-label={t('common:fields.name')}>
                    <strong>{team.name}</strong>
                    {team.description && <p className="muted">{team.description}</p>}
                  </td>
                  <td data-label={t('columns.members')}>
                    {team.managerCount > 0
                      ? t('counts.membersManagers', { count: team.memberCount, managerCount: team.managerCount })
                      : t('counts.members', { count: team.memberCount })}
                  </td>
                  <td data-label={t('columns.filledFrom')} className="break">
                    {team.ldapGroup && <span className="badge">{t('source.LDAP')}</span>}
                    {team.oidcGroup && <span className="badge">{t('source.OIDC')}</span>}
                    {!team.ldapGroup && !team.oidcGroup && t('adminsOnly')}
                  </td>
                </>
              )}
              actions={(team) => (
                <>
                  <button
                    type="button"
                    className="button-secondary button-small"
                    onClick={() => setDialog({ kind: 'members', team })}
                    aria-label={t('membersOf', { name: team.name })}
                  >
                    {t('columns.members')}
                  </button>
                  <button
                    type="button"
                    className="button-secondary button-small"
                    onClick={() => setDialog({ kind: 'edit', team })}
                    aria-label={t('editNamed', { name: team.name })}
                  >
                    {t('common:edit')}
                  </button>
                  <button
                    type="button"
                    className="button-danger button-small"
                    onClick={() => setDialog({ kind: 'delete', team })}
                    aria-label={t('deleteNamed', { name: team.name })}
                  >
                    {t('common:delete')}
                  </button>
                </>
              )}
            />
          )
        }
      </Loaded>
      {dialog?.kind === 'new' && <TeamDialog onClose={() => setDialog(undefined)} onSaved={(team) => done(t('added', { name: team.name }))} />}
      {dialog?.kind === 'edit' && (
        <TeamDialog team={dialog.team} onClose={() => setDialog(undefined)} onSaved={(team) => done(t('saved', { name: team.name }))} />
      )}
      {dialog?.kind === 'members' && <MembersDialog team={dialog.team} onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'delete' && (
        <DeleteTeamDialog team={dialog.team} onClose={() => setDialog(undefined)} onDeleted={() => done(t('deleted', { name: dialog.team.name }))} />
      )}
    </div>
  );
}

function TeamDialog({ team, onClose, onSaved }: { team?: Team; onClose: () => void; onSaved: (team: Team) => void }) {
  const { t } = useTranslation('teams');
  const [name, setName] = useState(team?.name ?? '');
  const [description, setDescription] = useState(team?.description ?? '');
  const [ldapGroup, setLdapGroup] = useState(team?.ldapGroup ?? '');
  const [oidcGroup, setOidcGroup] = useState(team?.oidcGroup ?? '');
  const create = useCreateTeam();
  const update = useUpdateTeam();
  const saving = team ? update : create;
  const failure = errorText(saving.error, t('subject'));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { name: name.trim(), description, ldapGroup: ldapGroup.trim() || null, oidcGroup: oidcGroup.trim() || null };
    if (team) update.mutate({ params: { path: { teamId: team.id } }, body }, { onSuccess: onSaved });
    else create.mutate({ body }, { onSuccess: onSaved });
  };
  return (
    <Dialog title={team ? t('editNamed', { name: team.name }) : t('add')} onClose={onClose}>
      {failure && <Alert kind="error">{failure}</Alert>}
      <form onSubmit={submit} className="stack" noValidate>
        <TextField label={t('common:fields.name')} value={name} onChange={(event) => setName(event.target.value)} maxLength={100} required />
        <TextArea
          label={t('common:fields.description')}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          maxLength={1000}
          rows={3}
        />
        <TextField
          label={t('form.ldapGroup')}
          value={ldapGroup}
          onChange={(event) => setLdapGroup(event.target.value)}
          maxLength={1000}
          hint={t('form.ldapHint')}
        />
        <TextField
          label={t('form.oidcGroup')}
          value={oidcGroup}
          onChange={(event) => setOidcGroup(event.target.value)}
          maxLength={200}
          hint={t('form.oidcHint')}
        />
        <div className="dialog-actions">
          <button type="button" className="button-secondary" onClick={onClose}>
            {t('common:cancel')}
          </button>
          <button type="submit" className="button-primary" disabled={saving.isPending || !name.trim()}>
            {saving.isPending ? t('common:saving') : t('common:save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function MembersDialog({ team, onClose }: { team: Team; onClose: () => void }) {
  const { t } = useTranslation('teams');
  const [page, setPage] = useState(0);
  const members = useTeamMembers(team.id, page);
  const adding = useAddMembers();
  const setting = useSetMemberRole();
  const removing = useRemoveMember();
  const failure = errorText(adding.error ?? setting.error ?? removing.error, t('members.subject'));
  const path = { teamId: team.id };
  return (
    <Dialog title={t('membersOf', { name: team.name })} onClose={onClose}>
      {failure && <Alert kind="error">{failure}</Alert>}
      <PersonPicker
        label={t('members.personToAdd')}
        action={t('members.addToTeam')}
        busy={adding.isPending}
        onPick={(userId) => adding.mutate({ params: { path }, body: { userIds: [userId] } })}
      />
      <Loaded query={members} label={t('members.loading')}>
        {(result) =>
          result.content.length === 0 ? (
            <EmptyState>{t('members.none')}</EmptyState>
          ) : (
            <ItemTable
              columns={[t('common:fields.name'), t('common:fields.role'), t('members.from')]}
              page={{ ...result, content: result.content.map((member) => ({ ...member, id: member.userId })) }}
              onPage={setPage}
              label={t('members.pages')}
              cells={(member) => (
                <>
                  <td data-label={t('common:fields.name')} className="break">
                    {member.firstName} {member.lastName}
                    <p className="muted">{member.email}</p>
                  </td>
                  <td data-label={t('common:fields.role')}>
                    {member.role === 'MANAGER' ? <span className="badge badge-accent">{t('members.manager')}</span> : t('members.member')}
                  </td>
                  <td data-label={t('members.from')}>{t(`source.${member.source}`)}</td>
                </>
              )}
              actions={(member) => (
                <>
                  <button
                    type="button"
                    className="button-secondary button-small"
                    disabled={setting.isPending}
                    onClick={() =>
                      setting.mutate({ params: { path: { ...path, userId: member.userId } }, body: { role: member.role === 'MANAGER' ? 'MEMBER' : 'MANAGER' } })
                    }
                    aria-label={
                      member.role === 'MANAGER'
                        ? t('members.makeMemberNamed', { firstName: member.firstName, lastName: member.lastName })
                        : t('members.makeManagerNamed', { firstName: member.firstName, lastName: member.lastName })
                    }
                  >
                    {member.role === 'MANAGER' ? t('members.makeMember') : t('members.makeManager')}
                  </button>
                  <button
                    type="button"
                    className="button-danger button-small"
                    disabled={removing.isPending}
                    onClick={() => removing.mutate({ params: { path: { ...path, userId: member.userId } } })}
                    aria-label={t('members.removeNamed', { firstName: member.firstName, lastName: member.lastName, team: team.name })}
                  >
                    {t('common:remove')}
                  </button>
                </>
              )}
            />
          )
        }
      </Loaded>
      <div className="dialog-actions">
        <button type="button" className="button-secondary" onClick={onClose}>
          {t('common:close')}
        </button>
      </div>
    </Dialog>
  );
}

function DeleteTeamDialog({ team, onClose, onDeleted }: { team: Team; onClose: () => void; onDeleted: () => void }) {
  const { t } = useTranslation('teams');
  const deleting = useDeleteTeam();
  const failure = errorText(deleting.error, t('subject'));
  return (
    <Dialog title={t('delete.title')} onClose={onClose}>
      {failure && <Alert kind="error">{failure}</Alert>}
      <p>{t('delete.question', { name: team.name })}</p>
      <div className="dialog-actions">
        <button type="button" className="button-secondary" onClick={onClose}>
          {t('common:cancel')}
        </button>
        <button
          type="button"
          className="button-danger"
          disabled={deleting.isPending}
          onClick={() => deleting.mutate({ params: { path: { teamId: team.id } } }, { onSuccess: onDeleted })}
        >
          {deleting.isPending ? t('common:deleting') : t('common:delete')}
        </button>
      </div>
    </Dialog>
  );
}
