import { useQuery } from '@tanstack/react-query';
import { call, publicApi } from '../../api/client.js';

/** GET /api/auth/oidc: whether "Sign in with …" is offered, and its name (public, read once per tab). */
export function useOidcStatus() {
  return useQuery({
    queryKey: ['get', '/api/auth/oidc'],
    queryFn: () => call(publicApi.GET('/api/auth/oidc')),
    staleTime: Infinity,
  });
}
