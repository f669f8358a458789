import type { Static } from '@sinclair/typebox';
import { keepPreviousData, useMutation } from '@tanstack/react-query';
import { $api, api, call } from '../../api/client.js';
import { STALE_AFTER } from '../../api/query.js';
import type { User } from '../../api/types.js';
import type { PersonForm } from './person.js';

/** Users (admins): reads and writes. */

const USERS_PAGE_SIZE = 20;

/** A page of users, optionally matching `search`; the previous page stays shown while the next loads. */
export const useUsers = (page: number, search: string) =>
  $api.useQuery(
    'get',
    '/api/users',
    { params: { query: { page, size: USERS_PAGE_SIZE, ...(search ? { search } : {}) } } },
    { placeholderData: keepPreviousData },
  );

/** Creates a user, or changes `user` when given. */
export const useSavePerson = (user: User | undefined, onSaved: (saved: User) => void) =>
  useMutation({
    mutationFn: (body: Static<typeof PersonForm>) => {
      if (!user) return call(api.POST('/api/users', { body }));
      // An address left as it is is not sent (features/users/person.ts, EditPersonForm).
      const { email, ...rest } = body;
      return call(api.PUT('/api/users/{id}', { params: { path: { id: user.id } }, body: email === user.email ? rest : body }));
    },
    meta: { invalidates: STALE_AFTER.users },
    onSuccess: onSaved,
  });

/** Sets a user's password (admins). */
export const useSetPassword = (onSaved: () => void) =>
  $api.useMutation('put', '/api/users/{id}/password', { meta: { invalidates: ['/api/users'] }, onSuccess: onSaved });

/** Deletes a user (for DeleteDialog, which invalidates what it is told). */
export const deleteUser = (id: string) => call(api.DELETE('/api/users/{id}', { params: { path: { id } } }));
