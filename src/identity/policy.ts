import { forbidden } from '../shared/errors.js';
import { isAdmin, type Caller } from './caller.js';

/** Whether the caller may act for `userId`: it is themselves, or they act as an admin (docs/behaviour.md#users). */
export const isSelfOrAdmin = (caller: Caller, userId: string): boolean => userId === caller.user.id || isAdmin(caller);

/**
 * Refuses (403, `message` as the detail) a caller who names another user without acting as an
 * admin. An absent `userId` (no user named, so the caller's own things) passes.
 */
export function requireSelfOrAdmin(caller: Caller, userId: string | undefined, message: string): void {
  if (userId !== undefined && !isSelfOrAdmin(caller, userId)) throw forbidden(message);
}
