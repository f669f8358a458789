import { useState, type FormEvent } from 'react';
import { call, publicApi } from '../api/client.js';
import { PublicFrame } from '../components/Layout.js';
import { Alert, TextField } from '../components/ui.js';
import { useTitle } from '../hooks.js';
import { problemMessage, problemOf } from '../lib/problems.js';
import { hasErrors, validateEmail, type FormErrors } from '../lib/validation.js';
import { Link } from '../router.js';

export function ForgotPassword() {
  useTitle('Forgot password');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<string>();
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: FormErrors = {};
    validateEmail(found, email);
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    setFailure(undefined);
    try {
      await call(publicApi.POST('/api/password/forgot', { body: { email: email.trim() } }));
      setSent(true);
    } catch (error) {
      setFailure(problemMessage(problemOf(error)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicFrame title="Forgot your password?">
      {sent ? (
        <Alert kind="success">If an account with that address exists, we have sent it a link to choose a new password. The link is valid for one hour.</Alert>
      ) : (
        <>
          <p>Enter your e-mail address and we will send you a link to choose a new password.</p>
          {failure && <Alert kind="error">{failure}</Alert>}
          <form onSubmit={submit} noValidate className="stack">
            <TextField label="E-mail" type="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} error={errors.email} autoFocus />
            <button type="submit" className="button-primary" disabled={busy}>
              {busy ? 'Sending…' : 'Send the link'}
            </button>
          </form>
        </>
      )}
      <p className="public-footer">
        <Link to="/sign-in">Back to sign-in</Link>
      </p>
    </PublicFrame>
  );
}
