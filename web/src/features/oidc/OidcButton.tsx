import { useTranslation } from 'react-i18next';
import { useOidcStatus } from './queries.js';
import './styles.css';

/**
 * "Sign in with …" on the sign-in page when single sign-on is configured: a plain link, as the
 * browser must navigate to the provider (docs/behaviour.md#single-sign-on-openid-connect).
 */
export function OidcButton() {
  const { t } = useTranslation('auth');
  const status = useOidcStatus();
  if (!status.data?.enabled || !status.data.startUrl) return null;
  return (
    <div className="stack">
      <p className="divider" aria-hidden="true">
        {t('signIn.or')}
      </p>
      <a className="button button-secondary button-block" href={status.data.startUrl}>
        {t('signIn.withProvider', { provider: status.data.displayName })}
      </a>
    </div>
  );
}
