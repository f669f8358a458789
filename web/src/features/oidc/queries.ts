import { useQuery } from '@tanstack/react-query';
import { $api, call, publicApi } from '../../api/client.js';

/** GET /api/auth/oidc: whether "Sign in with …" is offered, and its name (public, read once per tab). */
export function useOidcStatus() {
  return useQuery({
    queryKey: ['get', '/api/auth/oidc'],
    queryFn: () => call(publicApi.GET('/api/auth/oidc')),
    staleTime: Infinity,
  });
}

const IDENTITY = '/api/users/{id}/oidc-identity';

/** The identity a user is linked to at the provider (docs/behaviour.md#linking-identities-to-accounts). */
export const useOidcIdentity = (userId: string, enabled = true) => $api.useQuery('get', IDENTITY, { params: { path: { id: userId } } }, { enabled });

/** Links a user to an identity by its `sub` (admins). */
export const useLinkOidcIdentity = (onSuccess: () => void) => $api.useMutation('put', IDENTITY, { meta: { invalidates: ['/api/users'] }, onSuccess });

/** Unlinks a user from their identity (admins). */
export const useUnlinkOidcIdentity = (onSuccess: () => void) => $api.useMutation('delete', IDENTITY, { meta: { invalidates: ['/api/users'] }, onSuccess });
