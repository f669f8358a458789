import { useState, type FormEvent } from 'react';
import { useAuth } from '../auth.js';
import { PublicFrame } from '../components/Layout.js';
import { Alert, TextField } from '../components/ui.js';
import { useTitle } from '../hooks.js';
import { problemMessage, problemOf } from '../lib/problems.js';
import { safeNext } from '../lib/routes.js';
import { hasErrors, validateSignIn, type FormErrors } from '../lib/validation.js';
import { Link, navigate, useLocation } from '../router.js';

export function SignIn({ reason }: { reason?: string }) {
  useTitle('Sign in');
  const { signIn } = useAuth();
  const { search } = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateSignIn({ email, password });
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    setFailure(undefined);
    try {
      await signIn(email, password);
      navigate(safeNext(search.get('next')), { replace: true });
    } catch (error) {
      setFailure(problemMessage(problemOf(error)));
      setBusy(false);
    }
  };

  return (
    <PublicFrame title="Sign in">
      {reason && !failure && <Alert kind="info">{reason}</Alert>}
      {failure && <Alert kind="error">{failure}</Alert>}
      <form onSubmit={submit} noValidate className="stack">
        <TextField label="E-mail" type="email" autoComplete="username" value={email} onChange={(event) => setEmail(event.target.value)} error={errors.email} autoFocus />
        <TextField label="Password" type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} error={errors.password} />
        <button type="submit" className="button-primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p className="public-footer">
        <Link to="/forgot-password">Forgot your password?</Link>
      </p>
    </PublicFrame>
  );
}
