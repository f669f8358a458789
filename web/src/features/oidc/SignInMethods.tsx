import { useTranslation } from 'react-i18next';
import type { User } from '../../api/types.js';
import { useOidcIdentity, useOidcStatus } from './queries.js';

/** The ways an account signs in: password or company directory, and single sign-on with its provider when linked. */
export function useSignInMethods(user: Pick<User, 'id' | 'ldap'>): { directory: boolean; sso?: { provider?: string }; loading: boolean } {
  const status = useOidcStatus();
  const enabled = status.data?.enabled === true;
  const identity = useOidcIdentity(user.id, enabled);
  const sso = identity.data?.linked ? { provider: status.data?.displayName ?? undefined } : undefined;
  return { directory: user.ldap === true, sso, loading: status.isPending || (enabled && identity.isPending) };
}

/** Profile: "How you sign in". */
export function SignInMethodsSection({ user }: { user: Pick<User, 'id' | 'ldap'> }) {
  const { t } = useTranslation('profile');
  const { directory, sso, loading } = useSignInMethods(user);
  const sentence = sso
    ? t(directory ? 'signInMethods.directoryOrSso' : 'signInMethods.passwordOrSso', { provider: sso.provider ?? t('signInMethods.someProvider') })
    : t(directory ? 'signInMethods.directory' : 'signInMethods.password');
  return (
    <section className="panel" aria-labelledby="sign-in-methods-heading">
      <h2 id="sign-in-methods-heading">{t('signInMethods.heading')}</h2>
      <p>{loading ? t('common:loading') : sentence}</p>
    </section>
  );
}
