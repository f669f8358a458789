import { useMutation } from '@tanstack/react-query';
import { call, publicApi } from '../../api/client.js';

/** Password links by mail (docs/behaviour.md#password-links-and-directory-sign-in); both need no sign-in. */

/** Asks for a reset link to be mailed to `email`. */
export const useForgotPassword = () => useMutation({ mutationFn: (email: string) => call(publicApi.POST('/api/password/forgot', { body: { email } })) });

/** Sets a new password with the link's token. */
export const useResetPassword = (token: string) =>
  useMutation({ mutationFn: (password: string) => call(publicApi.POST('/api/password/reset', { body: { token, password } })) });
