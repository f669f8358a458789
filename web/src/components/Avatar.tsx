import { useEffect, useState } from 'react';
import { api } from '../api/client.js';
import type { User } from '../api/types.js';

// Reading an avatar needs the token, so it is fetched and shown as a blob URL; one per user and version.
const cache = new Map<string, Promise<string | undefined>>();
const versions = new Map<string, number>();

/** Forgets a user's cached avatar (after an upload or removal). */
export function avatarChanged(userId: string): void {
  versions.set(userId, (versions.get(userId) ?? 0) + 1);
}

function avatarUrl(userId: string): Promise<string | undefined> {
  const key = `${userId}:${versions.get(userId) ?? 0}`;
  let pending = cache.get(key);
  if (!pending) {
    pending = api
      .GET('/api/users/{id}/avatar', { params: { path: { id: userId } }, parseAs: 'blob' })
      .then(({ data }) => (data instanceof Blob ? URL.createObjectURL(data) : undefined))
      .catch(() => undefined);
    cache.set(key, pending);
  }
  return pending;
}

const initials = (user: Pick<User, 'firstName' | 'lastName'>) => `${user.firstName.trim()[0] ?? ''}${user.lastName.trim()[0] ?? ''}`.toUpperCase();

export function Avatar({ user, size = 40 }: { user: Pick<User, 'id' | 'firstName' | 'lastName' | 'hasAvatar'>; size?: number }) {
  const [url, setUrl] = useState<string>();
  const version = versions.get(user.id) ?? 0;
  useEffect(() => {
    let current = true;
    setUrl(undefined);
    if (user.hasAvatar) void avatarUrl(user.id).then((found) => current && setUrl(found));
    return () => {
      current = false;
    };
  }, [user.id, user.hasAvatar, version]);
  const style = { width: size, height: size, fontSize: Math.round(size * 0.4) };
  if (url) return <img className="avatar" src={url} alt="" style={style} />;
  return (
    <span className="avatar avatar-initials" style={style} aria-hidden="true">
      {initials(user)}
    </span>
  );
}
