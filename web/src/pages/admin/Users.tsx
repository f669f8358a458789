import { useEffect, useState, type FormEvent } from 'react';
import { api, call } from '../../api/client.js';
import type { User } from '../../api/types.js';
import { useUser } from '../../auth.js';
import { Avatar } from '../../components/Avatar.js';
import { DeleteDialog } from '../../components/DeleteDialog.js';
import { Alert, Checkbox, Dialog, EmptyState, Loaded, PageHeader, Pager, SelectField, TextField } from '../../components/ui.js';
import { useAction, useLoad, useTitle } from '../../hooks.js';
import { hasErrors, PASSWORD_MIN, validateNewPassword, validatePerson, type FormErrors } from '../../lib/validation.js';

const PAGE_SIZE = 20;

type Role = 'USER' | 'ADMIN';

interface PersonForm {
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
  enabled: boolean;
  ldap: boolean;
}

const fullName = (user: Pick<User, 'firstName' | 'lastName'>) => `${user.firstName} ${user.lastName}`;

export function UsersPage() {
  useTitle('Users');
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [dialog, setDialog] = useState<{ kind: 'new' } | { kind: 'edit' | 'password' | 'delete'; user: User }>();
  const [notice, setNotice] = useState<string>();
  const users = useLoad(() => call(api.GET('/api/users', { params: { query: { page, size: PAGE_SIZE, ...(search ? { search } : {}) } } })), [page, search]);

  // Searching waits for a pause in typing.
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(query.trim());
      setPage(0);
    }, 300);
    return () => clearTimeout(timer);
  }, [query]);

  const done = (message: string) => {
    setDialog(undefined);
    setNotice(message);
    void users.reload();
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
      <Loaded state={users.state} retry={() => void users.reload()} label="Loading users…">
        {(result) =>
          result.content.length === 0 ? (
            <EmptyState>{search ? 'No user matches this search.' : 'No users.'}</EmptyState>
          ) : (
            <>
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">E-mail</th>
                    <th scope="col">Role</th>
                    <th scope="col">Status</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {result.content.map((user) => (
                    <tr key={user.id}>
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
                      <td className="table-actions">
                        <button type="button" className="button-secondary button-small" onClick={() => setDialog({ kind: 'edit', user })} aria-label={`Edit ${fullName(user)}`}>
                          Edit
                        </button>
                        {!user.ldap && (
                          <button type="button" className="button-secondary button-small" onClick={() => setDialog({ kind: 'password', user })} aria-label={`Set the password of ${fullName(user)}`}>
                            Set password
                          </button>
                        )}
                        <button type="button" className="button-danger button-small" onClick={() => setDialog({ kind: 'delete', user })} aria-label={`Delete ${fullName(user)}`}>
                          Delete
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager page={result.number} totalPages={result.totalPages} onPage={setPage} label="User pages" />
            </>
          )
        }
      </Loaded>
      {dialog?.kind === 'new' && (
        <PersonDialog
          onClose={() => setDialog(undefined)}
          onSaved={(user) => {
            void users.reload();
            // A new local user cannot sign in before a password is set: that comes next.
            if (user.ldap) done(`${fullName(user)} has been added.`);
            else setDialog({ kind: 'password', user });
          }}
        />
      )}
      {dialog?.kind === 'edit' && <PersonDialog user={dialog.user} onClose={() => setDialog(undefined)} onSaved={(user) => done(`${fullName(user)} has been saved.`)} />}
      {dialog?.kind === 'password' && <PasswordDialog user={dialog.user} onClose={() => setDialog(undefined)} onSaved={() => done(`The password of ${fullName(dialog.user)} has been set.`)} />}
      {dialog?.kind === 'delete' && (
        <DeleteDialog
          title="Delete this user?"
          question={`${fullName(dialog.user)} (${dialog.user.email}) will be deleted, with their sessions and reservations.`}
          subject="This user"
          onDelete={() => call(api.DELETE('/api/users/{id}', { params: { path: { id: dialog.user.id } } }))}
          onDeleted={() => done(`${fullName(dialog.user)} has been deleted.`)}
          onClose={() => setDialog(undefined)}
        />
      )}
    </div>
  );
}

function PersonDialog({ user, onClose, onSaved }: { user?: User; onClose: () => void; onSaved: (user: User) => void }) {
  const { user: me } = useUser();
  const [form, setForm] = useState<PersonForm>({
    firstName: user?.firstName ?? '',
    lastName: user?.lastName ?? '',
    email: user?.email ?? '',
    role: (user?.role as Role | undefined) ?? 'USER',
    enabled: user?.enabled ?? true,
    ldap: user?.ldap ?? false,
  });
  const [errors, setErrors] = useState<FormErrors>({});
  const action = useAction('This user');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validatePerson(form);
    setErrors(found);
    if (hasErrors(found)) return;
    const body = { ...form, firstName: form.firstName.trim(), lastName: form.lastName.trim(), email: form.email.trim() };
    let saved: User | undefined;
    await action.run(async () => {
      saved = user ? await call(api.PUT('/api/users/{id}', { params: { path: { id: user.id } }, body })) : await call(api.POST('/api/users', { body }));
    });
    if (saved) onSaved(saved);
  };

  const self = user?.id === me.id;
  return (
    <Dialog title={user ? `Edit ${fullName(user)}` : 'Add a user'} onClose={onClose}>
      <form onSubmit={submit} noValidate className="stack">
        {action.error && <Alert kind="error">{action.error}</Alert>}
        <div className="field-pair">
          <TextField label="First name" value={form.firstName} maxLength={200} onChange={(event) => setForm({ ...form, firstName: event.target.value })} error={errors.firstName} />
          <TextField label="Last name" value={form.lastName} maxLength={200} onChange={(event) => setForm({ ...form, lastName: event.target.value })} error={errors.lastName} />
        </div>
        <TextField label="E-mail" type="email" value={form.email} maxLength={200} onChange={(event) => setForm({ ...form, email: event.target.value })} error={errors.email} />
        <SelectField label="Role" value={form.role} onChange={(event) => setForm({ ...form, role: event.target.value as Role })}>
          <option value="USER">User: books desks and reports problems</option>
          <option value="ADMIN">Administrator: also manages offices, users and reports</option>
        </SelectField>
        <Checkbox label="Active (may sign in)" checked={form.enabled} onChange={(event) => setForm({ ...form, enabled: event.target.checked })} disabled={self} />
        <Checkbox label="Signs in through the company directory (LDAP)" checked={form.ldap} onChange={(event) => setForm({ ...form, ldap: event.target.checked })} />
        {self && <p className="field-hint">You cannot disable your own account.</p>}
        <div className="dialog-actions">
          <button type="button" className="button-secondary" onClick={onClose} disabled={action.busy}>
            Cancel
          </button>
          <button type="submit" className="button-primary" disabled={action.busy}>
            {action.busy ? 'Saving…' : user ? 'Save' : 'Add the user'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function PasswordDialog({ user, onClose, onSaved }: { user: User; onClose: () => void; onSaved: () => void }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const action = useAction('This user');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateNewPassword({ password, confirm });
    setErrors(found);
    if (hasErrors(found)) return;
    if (await action.run(() => call(api.PUT('/api/users/{id}/password', { params: { path: { id: user.id } }, body: { password } })))) onSaved();
  };
  return (
    <Dialog title={`Set the password of ${fullName(user)}`} onClose={onClose}>
      <form onSubmit={submit} noValidate className="stack">
        {action.error && <Alert kind="error">{action.error}</Alert>}
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={errors.password}
          hint={`At least ${PASSWORD_MIN} characters. Tell it to ${user.firstName} in a safe way.`}
        />
        <TextField label="Repeat the password" type="password" autoComplete="new-password" value={confirm} onChange={(event) => setConfirm(event.target.value)} error={errors.confirm} />
        <div className="dialog-actions">
          <button type="button" className="button-secondary" onClick={onClose} disabled={action.busy}>
            Later
          </button>
          <button type="submit" className="button-primary" disabled={action.busy}>
            {action.busy ? 'Saving…' : 'Set the password'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
