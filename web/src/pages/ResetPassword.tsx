import { useState, type FormEvent } from 'react';
import { call, publicApi } from '../api/client.js';
import { PublicFrame } from '../components/Layout.js';
import { Alert, TextField } from '../components/ui.js';
import { useTitle } from '../hooks.js';
import { problemMessage, problemOf } from '../lib/problems.js';
import { hasErrors, PASSWORD_MIN, validateNewPassword, type FormErrors } from '../lib/validation.js';
import { Link, useLocation } from '../router.js';

/** The page the reset link in the e-mail opens: /reset-password?token=… */
export function ResetPassword() {
  useTitle('Choose a new password');
  const token = useLocation().search.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<string>();
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateNewPassword({ password, confirm });
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    setFailure(undefined);
    try {
      await call(publicApi.POST('/api/password/reset', { body: { token, password } }));
      setDone(true);
    } catch (error) {
      setFailure(problemMessage(problemOf(error)));
    } finally {
      setBusy(false);
    }
  };

  if (!token) {
    return (
      <PublicFrame title="Choose a new password">
        <Alert kind="error">This link is incomplete. Open the link from the e-mail again, or ask for a new one.</Alert>
        <p className="public-footer">
          <Link to="/forgot-password">Ask for a new link</Link>
        </p>
      </PublicFrame>
    );
  }

  return (
    <PublicFrame title="Choose a new password">
      {done ? (
        <Alert kind="success">Your password has been changed, and every session of your account has been signed out.</Alert>
      ) : (
        <>
          {failure && <Alert kind="error">{failure}</Alert>}
          <form onSubmit={submit} noValidate className="stack">
            <TextField
              label="New password"
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              error={errors.password}
              hint={`At least ${PASSWORD_MIN} characters.`}
              autoFocus
            />
            <TextField label="Repeat the new password" type="password" autoComplete="new-password" value={confirm} onChange={(event) => setConfirm(event.target.value)} error={errors.confirm} />
            <button type="submit" className="button-primary" disabled={busy}>
              {busy ? 'Saving…' : 'Set the new password'}
            </button>
          </form>
        </>
      )}
      <p className="public-footer">
        <Link to="/sign-in">{done ? 'Sign in' : 'Back to sign-in'}</Link>
      </p>
    </PublicFrame>
  );
}
