import { usePicture } from '../api/pictures.js';
import type { User } from '../api/types.js';
import { useObjectUrl } from '../hooks.js';

const initials = (user: Pick<User, 'firstName' | 'lastName'>) => `${user.firstName.trim()[0] ?? ''}${user.lastName.trim()[0] ?? ''}`.toUpperCase();

/** A user's picture, or their initials. */
export function Avatar({ user, size = 40 }: { user: Pick<User, 'id' | 'firstName' | 'lastName' | 'hasAvatar'>; size?: number }) {
  const picture = usePicture({ kind: 'avatar', userId: user.id }, { enabled: user.hasAvatar });
  const url = useObjectUrl(user.hasAvatar ? picture.data : undefined);
  const style = { width: size, height: size, fontSize: Math.round(size * 0.4) };
  if (url) return <img className="avatar" src={url} alt="" style={style} />;
  return (
    <span className="avatar avatar-initials" style={style} aria-hidden="true">
      {initials(user)}
    </span>
  );
}
