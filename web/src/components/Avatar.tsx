import { $api } from '../api/client.js';
import type { User } from '../api/types.js';
import { useObjectUrl } from '../hooks.js';

const initials = (user: Pick<User, 'firstName' | 'lastName'>) => `${user.firstName.trim()[0] ?? ''}${user.lastName.trim()[0] ?? ''}`.toUpperCase();

/** A user's picture, or their initials. Pictures are read once and kept until a change of users makes them stale. */
export function Avatar({ user, size = 40 }: { user: Pick<User, 'id' | 'firstName' | 'lastName' | 'hasAvatar'>; size?: number }) {
  const picture = $api.useQuery('get', '/api/users/{id}/avatar', { params: { path: { id: user.id } }, parseAs: 'blob' }, { enabled: user.hasAvatar, staleTime: Infinity });
  const url = useObjectUrl(user.hasAvatar ? (picture.data as Blob | undefined) : undefined);
  const style = { width: size, height: size, fontSize: Math.round(size * 0.4) };
  if (url) return <img className="avatar" src={url} alt="" style={style} />;
  return (
    <span className="avatar avatar-initials" style={style} aria-hidden="true">
      {initials(user)}
    </span>
  );
}
