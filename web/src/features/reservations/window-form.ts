import { useSettings } from '../../api/settings.js';
import { resolverOf, useCheckedForm } from '../../lib/forms.js';
import type { LocalWindow } from '../../lib/time.js';
import { useUser } from '../auth/AuthProvider.js';
import { validateWindow } from './window.js';

/** A form for a booking window (date, from, to), checked against now and, for users, the published booking rules. */
export function useWindowForm(initial: LocalWindow) {
  const { isAdmin } = useUser();
  const settings = useSettings();
  const limits = isAdmin ? undefined : settings;
  return useCheckedForm(
    initial,
    resolverOf((values: LocalWindow) => ({ values, errors: validateWindow(values, new Date(), { limits }) })),
  );
}
