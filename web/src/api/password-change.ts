import { onSessionChange } from './session.js';

/**
 * Whether the signed-in account must choose its own password first (created with a generated
 * one): the service then refuses nearly every operation with 403 PASSWORD_CHANGE_REQUIRED. The API
 * client raises this flag from any such answer, so no page has to look for it; the app then shows
 * the "Choose your password" form and, once it is done, the page the person wanted.
 */

let required = false;
const listeners = new Set<() => void>();

export const passwordChangeRequired = () => required;

export function setPasswordChangeRequired(value: boolean): void {
  if (required === value) return;
  required = value;
  for (const listener of listeners) listener();
}

export function onPasswordChangeRequired(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// The next person to sign in in this tab starts without it.
onSessionChange((session) => {
  if (!session) setPasswordChangeRequired(false);
});
