import { describe, expect, it } from 'vitest';
import type { Caller } from '../../src/identity/caller.js';
import { isSelfOrAdmin, requireSelfOrAdmin } from '../../src/identity/policy.js';
import { AppError } from '../../src/shared/errors.js';

const caller = (role: 'USER' | 'ADMIN', mustChangePassword = false) => ({ user: { id: 'me', role, mustChangePassword }, sessionId: 's' }) as unknown as Caller;

// docs/behaviour.md#users: users act for themselves, admins for anyone (not while they must still replace a generated password).
describe('requireSelfOrAdmin', () => {
  it('lets a user act for themselves, or name no user at all', () => {
    expect(() => requireSelfOrAdmin(caller('USER'), 'me', 'no')).not.toThrow();
    expect(() => requireSelfOrAdmin(caller('USER'), undefined, 'no')).not.toThrow();
    expect(isSelfOrAdmin(caller('USER'), 'me')).toBe(true);
  });

  it('refuses a user naming someone else with 403 FORBIDDEN and the given detail', () => {
    let thrown: unknown;
    try {
      requireSelfOrAdmin(caller('USER'), 'other', 'You may list only your own sessions');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({ code: 'FORBIDDEN', status: 403, message: 'You may list only your own sessions' });
    expect(isSelfOrAdmin(caller('USER'), 'other')).toBe(false);
  });

  it('lets an admin act for anyone, but not an admin who must still change a generated password', () => {
    expect(() => requireSelfOrAdmin(caller('ADMIN'), 'other', 'no')).not.toThrow();
    expect(() => requireSelfOrAdmin(caller('ADMIN', true), 'other', 'no')).toThrow(AppError);
    expect(isSelfOrAdmin(caller('ADMIN', true), 'me')).toBe(true);
  });
});
