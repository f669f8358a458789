import { useQuery } from '@tanstack/react-query';
import { problemOf } from '../lib/problems.js';
import { api, asIs, call, fileBody } from './client.js';
import { STALE_AFTER } from './query.js';

/**
 * The two kinds of picture the service keeps: a user's avatar and a department's picture (or floor
 * plan). Reading one needs the token, so it is read as a blob (shown through an object URL) and
 * cached like every other read, keyed like $api's queries so that changes make it stale.
 */
export type PictureOf = { kind: 'avatar'; userId: string } | { kind: 'department'; departmentId: string };

interface PictureRoutes {
  key: readonly unknown[];
  read: () => Promise<unknown>;
  upload: (file: File) => Promise<unknown>;
  remove: () => Promise<unknown>;
  /** What a change of the picture makes stale. */
  invalidates: readonly string[];
}

// The picture routes take a multipart body, which the OpenAPI document does not describe.
const multipart = (file: File) => ({ body: fileBody(file) as never, bodySerializer: asIs });

export function pictureRoutes(of: PictureOf): PictureRoutes {
  if (of.kind === 'avatar') {
    const params = { path: { id: of.userId } };
    return {
      key: ['get', '/api/users/{id}/avatar', { params }],
      read: () => call(api.GET('/api/users/{id}/avatar', { params, parseAs: 'blob' })),
      upload: (file) => call(api.PUT('/api/users/{id}/avatar', { params, ...multipart(file) })),
      remove: () => call(api.DELETE('/api/users/{id}/avatar', { params })),
      invalidates: STALE_AFTER.users,
    };
  }
  const params = { path: { departmentId: of.departmentId } };
  return {
    key: ['get', '/api/departments/{departmentId}/image', { params }],
    read: () => call(api.GET('/api/departments/{departmentId}/image', { params, parseAs: 'blob' })),
    upload: (file) => call(api.PUT('/api/departments/{departmentId}/image', { params, ...multipart(file) })),
    remove: () => call(api.DELETE('/api/departments/{departmentId}/image', { params })),
    invalidates: STALE_AFTER.inventory,
  };
}

/** A picture: its blob, null when there is none (404), undefined while it is read. */
export function usePicture(of: PictureOf, options: { enabled?: boolean } = {}) {
  const routes = pictureRoutes(of);
  return useQuery({
    queryKey: routes.key,
    queryFn: () =>
      routes.read().then(
        (blob) => blob as Blob,
        (error: unknown) => (problemOf(error).status === 404 ? null : Promise.reject(error)),
      ),
    enabled: options.enabled,
    // Kept until a change makes it stale.
    staleTime: Infinity,
  });
}
