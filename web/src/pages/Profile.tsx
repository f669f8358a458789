import { useState, type FormEvent } from 'react';
import { api, asIs, call, fileBody } from '../api/client.js';
import { useAuth, useUser } from '../auth.js';
import { Avatar, avatarChanged } from '../components/Avatar.js';
import { ImageButtons, useImageUpload } from '../components/ImageUpload.js';
import { Alert, EmptyState, Loaded, PageHeader, TextField } from '../components/ui.js';
import { useLoad, useTitle } from '../hooks.js';
import { problemMessage, problemOf } from '../lib/problems.js';
import { formatDateTime } from '../lib/time.js';
import { hasErrors, PASSWORD_MIN, validatePasswordChange, validatePerson, type FormErrors } from '../lib/validation.js';

export function Profile() {
  useTitle('Profile');
  const { user } = useUser();
  return (
    <div className="page page-narrow">
      <PageHeader title="Your profile" />
      <p className="lead">
        {user.email}
        {user.role === 'ADMIN' && <span className="badge">Administrator</span>}
      </p>
      <AvatarSection />
      <NameSection />
      {!user.ldap && <PasswordSection />}
      <SessionsSection />
    </div>
  );
}

function AvatarSection() {
  const { user } = useUser();
  const { setUser } = useAuth();
  const image = useImageUpload({
    // The avatar routes take a multipart body, which the OpenAPI document does not describe.
    upload: async (file) => {
      const updated = await call(api.PUT('/api/users/{id}/avatar', { params: { path: { id: user.id } }, body: fileBody(file) as never, bodySerializer: asIs }));
      avatarChanged(user.id);
      setUser(updated);
    },
    remove: async () => {
      await call(api.DELETE('/api/users/{id}/avatar', { params: { path: { id: user.id } } }));
      avatarChanged(user.id);
      setUser({ ...user, hasAvatar: false });
    },
    uploaded: 'Your picture has been updated.',
    removed: 'Your picture has been removed.',
    uploadSubject: 'Your account',
    removeSubject: 'Your picture',
  });

  return (
    <section className="panel" aria-labelledby="avatar-heading">
      <h2 id="avatar-heading">Picture</h2>
      {image.message && <Alert kind={image.message.kind}>{image.message.text}</Alert>}
      <div className="avatar-editor">
        <Avatar user={user} size={88} />
        <div className="stack">
          <ImageButtons image={image} present={user.hasAvatar} replaceLabel="Choose another picture" />
          <p className="field-hint">PNG, JPEG or WebP, up to 5 MB. It is cropped to a square.</p>
        </div>
      </div>
    </section>
  );
}

function NameSection() {
  const { user } = useUser();
  const { setUser } = useAuth();
  const [firstName, setFirstName] = useState(user.firstName);
  const [lastName, setLastName] = useState(user.lastName);
  const [errors, setErrors] = useState<FormErrors>({});
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string }>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validatePerson({ firstName, lastName });
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    setMessage(undefined);
    try {
      setUser(await call(api.PUT('/api/self', { body: { firstName: firstName.trim(), lastName: lastName.trim() } })));
      setMessage({ kind: 'success', text: 'Your name has been saved.' });
    } catch (error) {
      setMessage({ kind: 'error', text: problemMessage(problemOf(error)) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel" aria-labelledby="name-heading">
      <h2 id="name-heading">Name</h2>
      {message && <Alert kind={message.kind}>{message.text}</Alert>}
      <form onSubmit={submit} noValidate className="stack">
        <div className="field-pair">
          <TextField label="First name" autoComplete="given-name" value={firstName} onChange={(event) => setFirstName(event.target.value)} error={errors.firstName} />
          <TextField label="Last name" autoComplete="family-name" value={lastName} onChange={(event) => setLastName(event.target.value)} error={errors.lastName} />
        </div>
        <div className="form-actions">
          <button type="submit" className="button-primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save the name'}
          </button>
        </div>
      </form>
    </section>
  );
}

function PasswordSection() {
  const [form, setForm] = useState({ currentPassword: '', newPassword: '', confirm: '' });
  const [errors, setErrors] = useState<FormErrors>({});
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string }>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validatePasswordChange(form);
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    setMessage(undefined);
    try {
      await call(api.PUT('/api/self/password', { body: { currentPassword: form.currentPassword, newPassword: form.newPassword } }));
      setForm({ currentPassword: '', newPassword: '', confirm: '' });
      setMessage({ kind: 'success', text: 'Your password has been changed. Your other devices have been signed out.' });
    } catch (error) {
      setMessage({ kind: 'error', text: problemMessage(problemOf(error)) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel" aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      {message && <Alert kind={message.kind}>{message.text}</Alert>}
      <form onSubmit={submit} noValidate className="stack">
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={form.currentPassword}
          onChange={(event) => setForm({ ...form, currentPassword: event.target.value })}
          error={errors.currentPassword}
        />
        <div className="field-pair">
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            value={form.newPassword}
            onChange={(event) => setForm({ ...form, newPassword: event.target.value })}
            error={errors.newPassword}
            hint={`At least ${PASSWORD_MIN} characters.`}
          />
          <TextField
            label="Repeat the new password"
            type="password"
            autoComplete="new-password"
            value={form.confirm}
            onChange={(event) => setForm({ ...form, confirm: event.target.value })}
            error={errors.confirm}
          />
        </div>
        <div className="form-actions">
          <button type="submit" className="button-primary" disabled={busy}>
            {busy ? 'Changing…' : 'Change the password'}
          </button>
        </div>
      </form>
    </section>
  );
}

/** Browser and system from a User-Agent header, roughly: enough to recognise a device. */
function deviceName(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Edg\//.test(userAgent) ? 'Edge' : /Firefox\//.test(userAgent) ? 'Firefox' : /Chrom(e|ium)\//.test(userAgent) ? 'Chrome' : /Safari\//.test(userAgent) ? 'Safari' : undefined;
  const system = /Android/.test(userAgent) ? 'Android' : /iPhone|iPad/.test(userAgent) ? 'iOS' : /Windows/.test(userAgent) ? 'Windows' : /Mac OS X/.test(userAgent) ? 'macOS' : /Linux/.test(userAgent) ? 'Linux' : undefined;
  return browser && system ? `${browser} on ${system}` : browser ?? system ?? userAgent.slice(0, 60);
}

function SessionsSection() {
  const { user, sessionId } = useUser();
  const { signOut } = useAuth();
  const sessions = useLoad(() => call(api.GET('/api/users/{id}/sessions', { params: { path: { id: user.id }, query: { size: 50 } } })), [user.id]);
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState<string>();

  const end = async (id: string) => {
    if (id === sessionId) return signOut();
    setBusy(id);
    setFailure(undefined);
    try {
      await call(api.DELETE('/api/sessions/{id}', { params: { path: { id } } }));
      sessions.update((page) => ({ ...page, content: page.content.filter((session) => session.id !== id), totalElements: page.totalElements - 1 }));
    } catch (error) {
      setFailure(problemMessage(problemOf(error), 'This session'));
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <section className="panel" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Where you are signed in</h2>
      {failure && <Alert kind="error">{failure}</Alert>}
      <Loaded state={sessions.state} retry={() => void sessions.reload()} label="Loading your sessions…">
        {(page) =>
          page.content.length === 0 ? (
            <EmptyState>No active sessions.</EmptyState>
          ) : (
            <ul className="session-list">
              {page.content.map((session) => (
                <li key={session.id} className="session">
                  <div>
                    <p>
                      <strong>{deviceName(session.userAgent)}</strong>
                      {session.id === sessionId && <span className="badge badge-accent">This device</span>}
                    </p>
                    <p className="muted">Signed in {formatDateTime(session.createdAt)} · stays signed in until {formatDateTime(session.refreshExpiresAt)}</p>
                  </div>
                  <button type="button" className="button-secondary button-small" disabled={busy === session.id} onClick={() => void end(session.id)}>
                    {session.id === sessionId ? 'Sign out' : 'Sign out this device'}
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  );
}
