import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { STALE_AFTER } from '../../api/query.js';
import type { User } from '../../api/types.js';
import { Avatar } from '../../components/Avatar.js';
import { DeleteDialog } from '../../components/DeleteDialog.js';
import { Alert, EmptyState, ItemTable, Loaded, PageHeader, TextField } from '../../components/ui.js';
import { useSettledSearch, useTitle } from '../../hooks.js';
import { OidcLinkDialog } from '../oidc/OidcLinkDialog.js';
import { useOidcStatus } from '../oidc/queries.js';
import { PasswordDialog } from './components/PasswordDialog.js';
import { PersonDialog } from './components/PersonDialog.js';
import { fullName } from './person.js';
import { deleteUser, useUsers } from './queries.js';

export function UsersPage() {
  const { t } = useTranslation('users');
  useTitle(t('title'));
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(0);
  const search = useSettledSearch(query, () => setPage(0));
  const [dialog, setDialog] = useState<{ kind: 'new' } | { kind: 'edit' | 'password' | 'oidc' | 'delete'; user: User }>();
  const oidc = useOidcStatus().data?.enabled === true;
  const [notice, setNotice] = useState<string>();
  const users = useUsers(page, search);

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
        <TextField label={t('search')} type="search" value={query} onChange={(event) => setQuery(event.target.value)} placeholder={t('searchPlaceholder')} />
      </div>
      <Loaded query={users} label={t('loading')}>
        {(result) =>
          result.content.length === 0 ? (
            <EmptyState>{search ? t('noMatch') : t('none')}</EmptyState>
          ) : (
            <ItemTable
              columns={[t('common:fields.name'), t('common:fields.email'), t('common:fields.role'), t('common:fields.status')]}
              page={result}
              onPage={setPage}
              label={t('pages')}
              cells={(user) => (
                <>
                  <td data-label={t('common:fields.name')}>
                    <span className="person">
                      <Avatar user={user} size={28} />
                      {fullName(user)}
                    </span>
                  </td>
                  <td data-label={t('common:fields.email')} className="break">
                    {user.email}
                  </td>
                  <td data-label={t('common:fields.role')}>{user.role === 'ADMIN' ? t('role.admin') : t('role.user')}</td>
                  <td data-label={t('common:fields.status')}>
                    {user.enabled ? <span className="badge badge-success">{t('active')}</span> : <span className="badge badge-warning">{t('disabled')}</span>}
                    {user.ldap && <span className="badge">{t('directory')}</span>}
                  </td>
                </>
              )}
              actions={(user) => (
                <>
                  <button
                    type="button"
                    className="button-secondary button-small"
                    onClick={() => setDialog({ kind: 'edit', user })}
                    aria-label={t('editOf', { name: fullName(user) })}
                  >
                    {t('common:edit')}
                  </button>
                  {!user.ldap && (
                    <button
                      type="button"
                      className="button-secondary button-small"
                      onClick={() => setDialog({ kind: 'password', user })}
                      aria-label={t('setPasswordOf', { name: fullName(user) })}
                    >
                      {t('setPassword')}
                    </button>
                  )}
                  {oidc && (
                    <button
                      type="button"
                      className="button-secondary button-small"
                      onClick={() => setDialog({ kind: 'oidc', user })}
                      aria-label={t('ssoOf', { name: fullName(user) })}
                    >
                      {t('sso')}
                    </button>
                  )}
                  <button
                    type="button"
                    className="button-danger button-small"
                    onClick={() => setDialog({ kind: 'delete', user })}
                    aria-label={t('deleteOf', { name: fullName(user) })}
                  >
                    {t('common:delete')}
                  </button>
                </>
              )}
            />
          )
        }
      </Loaded>
      {dialog?.kind === 'new' && (
        <PersonDialog
          onClose={() => setDialog(undefined)}
          onSaved={(user) => {
            // A new local user cannot sign in before a password is set: that comes next.
            if (user.ldap) done(t('added', { name: fullName(user) }));
            else setDialog({ kind: 'password', user });
          }}
        />
      )}
      {dialog?.kind === 'edit' && (
        <PersonDialog user={dialog.user} onClose={() => setDialog(undefined)} onSaved={(user) => done(t('saved', { name: fullName(user) }))} />
      )}
      {dialog?.kind === 'password' && (
        <PasswordDialog user={dialog.user} onClose={() => setDialog(undefined)} onSaved={() => done(t('passwordSet', { name: fullName(dialog.user) }))} />
      )}
      {dialog?.kind === 'oidc' && <OidcLinkDialog user={dialog.user} onClose={() => setDialog(undefined)} onSaved={done} />}
      {dialog?.kind === 'delete' && (
        <DeleteDialog
          title={t('delete.title')}
          question={t('delete.question', { name: fullName(dialog.user), email: dialog.user.email })}
          subject={t('subject')}
          remove={() => deleteUser(dialog.user.id)}
          invalidates={[...STALE_AFTER.users, ...STALE_AFTER.reservations]}
          onDeleted={() => done(t('deleted', { name: fullName(dialog.user) }))}
          onClose={() => setDialog(undefined)}
        />
      )}
    </div>
  );
}
