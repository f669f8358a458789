import type { User } from '../../api/types.js';
import { useOidcIdentity, useOidcStatus } from './queries.js';

/** The ways an account signs in, in words: password, company directory, single sign-on. */
export function useSignInMethods(user: Pick<User, 'id' | 'ldap'>): { methods: string[]; loading: boolean } {
  const status = useOidcStatus();
  const enabled = status.data?.enabled === true;
  const identity = useOidcIdentity(user.id, enabled);
  const methods = [user.ldap ? 'the company directory (LDAP)' : 'a password'];
  if (identity.data?.linked) methods.push(`single sign-on with ${status.data?.displayName ?? 'the identity provider'}`);
  return { methods, loading: status.isPending || (enabled && identity.isPending) };
}

/** Profile: "How you sign in". */
export function SignInMethodsSection({ user }: { user: Pick<User, 'id' | 'ldap'> }) {
  const { methods, loading } = useSignInMethods(user);
  return (
    <section className="panel" aria-labelledby="sign-in-methods-heading">
      <h2 id="sign-in-methods-heading">How you sign in</h2>
      <p>{loading ? 'Loading…' : `You sign in with ${methods.join(' or with ')}.`}</p>
    </section>
  );
}
