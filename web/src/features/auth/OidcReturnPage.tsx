import { useEffect, useRef, useState } from 'react';
import { PublicFrame } from '../../components/PublicFrame.js';
import { Alert, Loading } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { errorText } from '../../lib/problems.js';
import { Link, navigate } from '../../router.js';
import { useAuth } from './AuthProvider.js';

/** What the service's error codes at the end of a single sign-on mean to the person. */
export const OIDC_ERRORS: Record<string, string> = {
  OIDC_STATE_INVALID: 'This sign-in attempt has expired or was started in another browser. Please start again.',
  OIDC_CODE_INVALID: 'This sign-in link has already been used or has expired. Please start again.',
  OIDC_PROVIDER_ERROR: 'The identity provider did not allow the sign-in.',
  OIDC_TOKEN_INVALID: "The identity provider's answer could not be verified, so you were not signed in. Please tell your administrator.",
  OIDC_NO_ACCOUNT:
    'There is no account here for you yet, or your account signs in with a password. Ask your administrator to link your account to single sign-on.',
  OIDC_ACCOUNT_DISABLED: 'Your account is disabled. Ask your administrator.',
  OIDC_DISABLED: 'Single sign-on is not set up on this server.',
  SERVICE_UNAVAILABLE: 'The identity provider is not answering right now. Try again in a moment.',
  TOO_MANY_REQUESTS: 'Too many sign-in attempts. Wait a minute and try again.',
};

const FALLBACK = 'The sign-in did not work. Please try again.';

/**
 * /sign-in/sso: where the service sends the browser back after the identity provider, with
 * #code=… (traded here for a session by POST; tokens never appear in a URL) or #error=<code>.
 */
export function OidcReturnPage() {
  useTitle('Signing in');
  const { adopt } = useAuth();
  const [failure, setFailure] = useState<string>();
  // OIDC_NO_ACCOUNT: the provider's identity, for the administrator who links it.
  const [subject, setSubject] = useState<string>();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const fragment = new URLSearchParams(window.location.hash.slice(1));
    // The code is used once: it leaves the address bar (and history) at once.
    window.history.replaceState(null, '', window.location.pathname);
    const code = fragment.get('code');
    const error = fragment.get('error');
    if (!code) {
      setFailure(OIDC_ERRORS[error ?? ''] ?? FALLBACK);
      setSubject(fragment.get('subject') ?? undefined);
      return;
    }
    adopt(code).then(
      () => navigate('/', { replace: true }),
      (thrown: unknown) => setFailure(OIDC_ERRORS[(thrown as { problem?: { code?: string } }).problem?.code ?? ''] ?? errorText(thrown) ?? FALLBACK),
    );
  }, [adopt]);

  return (
    <PublicFrame title="Single sign-on">
      {failure ? (
        <>
          <Alert kind="error">{failure}</Alert>
          {subject && (
            <p>
              Your identity at the provider, for your administrator: <code className="break">{subject}</code>
            </p>
          )}
          <p className="public-footer">
            <Link to="/sign-in">Back to sign-in</Link>
          </p>
        </>
      ) : (
        <Loading label="Signing you in…" />
      )}
    </PublicFrame>
  );
}
