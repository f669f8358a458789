import { useState } from 'react';
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
  useTitle('Users');
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
      <PageHeader title="Users">
        <button type="button" className="button-primary" onClick={() => setDialog({ kind: 'new' })}>
          Add a user
        </button>
      </PageHeader>
      {notice && (
        <Alert kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Alert>
      )}
      <div className="toolbar">
        <TextField label="Search users" type="search" value={query} onChange={(event) => setQuery(event.target.value)} placeholder="Name or e-mail" />
      </div>
      <Loaded query={users} label="Loading users…">
        {(result) =>
          result.content.length === 0 ? (
            <EmptyState>{search ? 'No user matches this search.' : 'No users.'}</EmptyState>
          ) : (
            <ItemTable
              columns={['Name', 'E-mail', 'Role', 'Status']}
              page={result}
              onPage={setPage}
              label="User pages"
              cells={(user) => (
                <>
                  <td data-label="Name">
                    <span className="person">
                      <Avatar user={user} size={28} />
                      {fullName(user)}
                    </span>
                  </td>
                  <td data-label="E-mail" className="break">
                    {user.email}
                  </td>
                  <td data-label="Role">{user.role === 'ADMIN' ? 'Administrator' : 'User'}</td>
                  <td data-label="Status">
                    {user.enabled ? <span className="badge badge-success">Active</span> : <span className="badge badge-warning">Disabled</span>}
                    {user.ldap && <span className="badge">Directory</span>}
                  </td>
                </>
              )}
              actions={(user) => (
                <>
                  <button
                    type="button"
                    className="button-secondary button-small"
                    onClick={() => setDialog({ kind: 'edit', user })}
                    aria-label={`Edit ${fullName(user)}`}
                  >
                    Edit
                  </button>
                  {!user.ldap && (
                    <button
                      type="button"
                      className="button-secondary button-small"
                      onClick={() => setDialog({ kind: 'password', user })}
                      aria-label={`Set password for ${fullName(user)}`}
                    >
                      Set password
                    </button>
                  )}
                  {oidc && (
                    <button
                      type="button"
                      className="button-secondary button-small"
                      onClick={() => setDialog({ kind: 'oidc', user })}
                      aria-label={`Single sign-on of ${fullName(user)}`}
                    >
                      Single sign-on
                    </button>
                  )}
                  <button
                    type="button"
                    className="button-danger button-small"
                    onClick={() => setDialog({ kind: 'delete', user })}
                    aria-label={`Delete ${fullName(user)}`}
                  >
                    Delete
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
            if (user.ldap) done(`${fullName(user)} has been added.`);
            else setDialog({ kind: 'password', user });
          }}
        />
      )}
      {dialog?.kind === 'edit' && (
        <PersonDialog user={dialog.user} onClose={() => setDialog(undefined)} onSaved={(user) => done(`${fullName(user)} has been saved.`)} />
      )}
      {dialog?.kind === 'password' && (
        <PasswordDialog
          user={dialog.user}
          onClose={() => setDialog(undefined)}
          onSaved={() => done(`The password of ${fullName(dialog.user)} has been set.`)}
        />
      )}
      {dialog?.kind === 'oidc' && <OidcLinkDialog user={dialog.user} onClose={() => setDialog(undefined)} onSaved={done} />}
      {dialog?.kind === 'delete' && (
        <DeleteDialog
          title="Delete this user?"
          question={`${fullName(dialog.user)} (${dialog.user.email}) will be deleted, with their sessions and reservations.`}
          subject="This user"
          remove={() => deleteUser(dialog.user.id)}
          invalidates={[...STALE_AFTER.users, ...STALE_AFTER.reservations]}
          onDeleted={() => done(`${fullName(dialog.user)} has been deleted.`)}
          onClose={() => setDialog(undefined)}
        />
      )}
    </div>
  );
}
