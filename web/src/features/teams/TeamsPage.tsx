import { useState, type FormEvent } from 'react';
import type { Team } from '../../api/types.js';
import { Alert, Dialog, EmptyState, ItemTable, Loaded, PageHeader, TextArea, TextField } from '../../components/ui.js';
import { useSettledSearch, useTitle } from '../../hooks.js';
import { errorText } from '../../lib/problems.js';
import { PersonPicker } from '../users/components/PersonPicker.js';
import { useAddMembers, useCreateTeam, useDeleteTeam, useRemoveMember, useSetMemberRole, useTeamMembers, useTeams, useUpdateTeam } from './queries.js';
import './styles.css';

/** Teams (docs/policies.md#teams), for admins: list, create, edit, members with their roles. */
export function TeamsPage() {
  useTitle('Teams');
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
      <PageHeader title="Teams">
        <button type="button" className="button-primary" onClick={() => setDialog({ kind: 'new' })}>
          Add a team
        </button>
      </PageHeader>
      {notice && (
        <Alert kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Alert>
      )}
      <div className="toolbar">
        <TextField label="Search teams" type="search" value={query} onChange={(event) => setQuery(event.target.value)} placeholder="Name" />
      </div>
      <Loaded query={teams} label="Loading teams…">
        {(result) =>
          result.content.length === 0 ? (
            <EmptyState>{search ? 'No team matches this search.' : 'No teams yet.'}</EmptyState>
          ) : (
            <ItemTable
              columns={['Name', 'Members', 'Filled from']}
              page={result}
              onPage={setPage}
              label="Team pages"
              cells={(team) => (
                <>
                  <td data-label="Name">
                    <strong>{team.name}</strong>
                    {team.description && <p className="muted">{team.description}</p>}
                  </td>
                  <td data-label="Members">
                    {team.memberCount} {team.memberCount === 1 ? 'member' : 'members'}
                    {team.managerCount > 0 && `, ${team.managerCount} ${team.managerCount === 1 ? 'manager' : 'managers'}`}
                  </td>
                  <td data-label="Filled from" className="break">
                    {team.ldapGroup && <span className="badge">Directory</span>}
                    {team.oidcGroup && <span className="badge">Single sign-on</span>}
                    {!team.ldapGroup && !team.oidcGroup && 'Admins only'}
                  </td>
                </>
              )}
              actions={(team) => (
                <>
                  <button
                    type="button"
                    className="button-secondary button-small"
                    onClick={() => setDialog({ kind: 'members', team })}
                    aria-label={`Members of ${team.name}`}
                  >
                    Members
                  </button>
                  <button
                    type="button"
                    className="button-secondary button-small"
                    onClick={() => setDialog({ kind: 'edit', team })}
                    aria-label={`Edit ${team.name}`}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className="button-danger button-small"
                    onClick={() => setDialog({ kind: 'delete', team })}
                    aria-label={`Delete ${team.name}`}
                  >
                    Delete
                  </button>
                </>
              )}
            />
          )
        }
      </Loaded>
      {dialog?.kind === 'new' && <TeamDialog onClose={() => setDialog(undefined)} onSaved={(team) => done(`The team ${team.name} has been added.`)} />}
      {dialog?.kind === 'edit' && (
        <TeamDialog team={dialog.team} onClose={() => setDialog(undefined)} onSaved={(team) => done(`The team ${team.name} has been saved.`)} />
      )}
      {dialog?.kind === 'members' && <MembersDialog team={dialog.team} onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'delete' && (
        <DeleteTeamDialog team={dialog.team} onClose={() => setDialog(undefined)} onDeleted={() => done(`The team ${dialog.team.name} has been deleted.`)} />
      )}
    </div>
  );
}

function TeamDialog({ team, onClose, onSaved }: { team?: Team; onClose: () => void; onSaved: (team: Team) => void }) {
  const [name, setName] = useState(team?.name ?? '');
  const [description, setDescription] = useState(team?.description ?? '');
  const [ldapGroup, setLdapGroup] = useState(team?.ldapGroup ?? '');
  const [oidcGroup, setOidcGroup] = useState(team?.oidcGroup ?? '');
  const create = useCreateTeam();
  const update = useUpdateTeam();
  const saving = team ? update : create;
  const failure = errorText(saving.error, 'This team');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { name: name.trim(), description, ldapGroup: ldapGroup.trim() || null, oidcGroup: oidcGroup.trim() || null };
    if (team) update.mutate({ params: { path: { teamId: team.id } }, body }, { onSuccess: onSaved });
    else create.mutate({ body }, { onSuccess: onSaved });
  };
  return (
    <Dialog title={team ? `Edit ${team.name}` : 'Add a team'} onClose={onClose}>
      {failure && <Alert kind="error">{failure}</Alert>}
      <form onSubmit={submit} className="stack" noValidate>
        <TextField label="Name" value={name} onChange={(event) => setName(event.target.value)} maxLength={100} required />
        <TextArea label="Description" value={description} onChange={(event) => setDescription(event.target.value)} maxLength={1000} rows={3} />
        <TextField
          label="Directory group (DN)"
          value={ldapGroup}
          onChange={(event) => setLdapGroup(event.target.value)}
          maxLength={1000}
          hint="The members of this LDAP group join the team when they sign in, e.g. cn=sales,ou=groups,dc=example,dc=com. Leave empty for none."
        />
        <TextField
          label="Single sign-on group"
          value={oidcGroup}
          onChange={(event) => setOidcGroup(event.target.value)}
          maxLength={200}
          hint="People whose groups claim holds this value join the team when they sign in. Leave empty for none."
        />
        <div className="dialog-actions">
          <button type="button" className="button-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button-primary" disabled={saving.isPending || !name.trim()}>
            {saving.isPending ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

const SOURCE_LABELS = { ADMIN: 'Added here', LDAP: 'Directory', OIDC: 'Single sign-on' } as const;

function MembersDialog({ team, onClose }: { team: Team; onClose: () => void }) {
  const [page, setPage] = useState(0);
  const members = useTeamMembers(team.id, page);
  const adding = useAddMembers();
  const setting = useSetMemberRole();
  const removing = useRemoveMember();
  const failure = errorText(adding.error ?? setting.error ?? removing.error, 'This person');
  const path = { teamId: team.id };
  return (
    <Dialog title={`Members of ${team.name}`} onClose={onClose}>
      {failure && <Alert kind="error">{failure}</Alert>}
      <PersonPicker
        label="Person to add"
        action="Add to the team"
        busy={adding.isPending}
        onPick={(userId) => adding.mutate({ params: { path }, body: { userIds: [userId] } })}
      />
      <Loaded query={members} label="Loading members…">
        {(result) =>
          result.content.length === 0 ? (
            <EmptyState>No members yet.</EmptyState>
          ) : (
            <ItemTable
              columns={['Name', 'Role', 'From']}
              page={{ ...result, content: result.content.map((member) => ({ ...member, id: member.userId })) }}
              onPage={setPage}
              label="Member pages"
              cells={(member) => (
                <>
                  <td data-label="Name" className="break">
                    {member.firstName} {member.lastName}
                    <p className="muted">{member.email}</p>
                  </td>
                  <td data-label="Role">{member.role === 'MANAGER' ? <span className="badge badge-accent">Manager</span> : 'Member'}</td>
                  <td data-label="From">{SOURCE_LABELS[member.source]}</td>
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
                      member.role === 'MANAGER' ? `Make member: ${member.firstName} ${member.lastName}` : `Make manager: ${member.firstName} ${member.lastName}`
                    }
                  >
                    {member.role === 'MANAGER' ? 'Make member' : 'Make manager'}
                  </button>
                  <button
                    type="button"
                    className="button-danger button-small"
                    disabled={removing.isPending}
                    onClick={() => removing.mutate({ params: { path: { ...path, userId: member.userId } } })}
                    aria-label={`Remove ${member.firstName} ${member.lastName} from ${team.name}`}
                  >
                    Remove
                  </button>
                </>
              )}
            />
          )
        }
      </Loaded>
      <div className="dialog-actions">
        <button type="button" className="button-secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}

function DeleteTeamDialog({ team, onClose, onDeleted }: { team: Team; onClose: () => void; onDeleted: () => void }) {
  const deleting = useDeleteTeam();
  const failure = errorText(deleting.error, 'This team');
  return (
    <Dialog title="Delete this team?" onClose={onClose}>
      {failure && <Alert kind="error">{failure}</Alert>}
      <p>The team {team.name} will be deleted with its memberships. Its members keep their accounts and reservations.</p>
      <div className="dialog-actions">
        <button type="button" className="button-secondary" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="button-danger"
          disabled={deleting.isPending}
          onClick={() => deleting.mutate({ params: { path: { teamId: team.id } } }, { onSuccess: onDeleted })}
        >
          {deleting.isPending ? 'Deleting…' : 'Delete'}
        </button>
      </div>
    </Dialog>
  );
}
