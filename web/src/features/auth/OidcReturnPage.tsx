import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PublicFrame } from '../../components/PublicFrame.js';
import { Alert, Loading } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { errorText } from '../../lib/problems.js';
import { translate } from '../../lib/translate.js';
import { Link, navigate } from '../../router.js';
import { useAuth } from './AuthProvider.js';

/** The service's error codes at the end of a single sign-on that have a sentence of their own here (auth:sso.errors). */
const OIDC_ERRORS = new Set([
  'OIDC_STATE_INVALID',
  'OIDC_CODE_INVALID',
  'OIDC_PROVIDER_ERROR',
  'OIDC_TOKEN_INVALID',
  'OIDC_NO_ACCOUNT',
  'OIDC_ACCOUNT_DISABLED',
  'OIDC_DISABLED',
  'SERVICE_UNAVAILABLE',
  'TOO_MANY_REQUESTS',
]);

/** What an error code at the end of a single sign-on means to the person, in the language in use (undefined: not one of them). */
const oidcError = (code: string | null | undefined): string | undefined => (code && OIDC_ERRORS.has(code) ? translate(`auth:sso.errors.${code}`) : undefined);

const fallback = () => translate('auth:sso.fallback');

/**
 * /sign-in/sso: where the service sends the browser back after the identity provider, with
 * #code=… (traded here for a session by POST; tokens never appear in a URL) or #error=<code>.
 */
export function OidcReturnPage() {
  const { t } = useTranslation('auth');
  useTitle(t('sso.pageTitle'));
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
      setFailure(oidcError(error) ?? fallback());
      setSubject(fragment.get('subject') ?? undefined);
      return;
    }
    adopt(code).then(
      () => navigate('/', { replace: true }),
      (thrown: unknown) => setFailure(oidcError((thrown as { problem?: { code?: string } }).problem?.code) ?? errorText(thrown) ?? fallback()),
    );
  }, [adopt]);

  return (
    <PublicFrame title={t('sso.title')}>
      {failure ? (
        <>
          <Alert kind="error">{failure}</Alert>
          {subject && (
            <p>
              {t('sso.identity')} <code className="break">{subject}</code>
            </p>
          )}
          <p className="public-footer">
            <Link to="/sign-in">{t('sso.back')}</Link>
          </p>
        </>
      ) : (
        <Loading label={t('sso.busy')} />
      )}
    </PublicFrame>
  );
}
