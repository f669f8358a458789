import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField } from '../../../components/ui.js';
import { browserZone } from '../../../lib/time.js';

/** Every IANA zone this browser knows, UTC first; the service checks the name again (docs/behaviour.md#office-time-zone). */
const KNOWN: string[] =
  typeof Intl.supportedValuesOf === 'function' ? ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')] : ['UTC'];

/** The choices: the known zones, plus the browser's and the office's current one if the list lacks them. */
export function timeZoneChoices(current?: string): string[] {
  const extra = [browserZone(), current].filter((zone): zone is string => Boolean(zone) && !KNOWN.includes(zone!));
  return [...new Set([...KNOWN, ...extra])];
}

/** An office's time zone: the one whose clock its opening hours, walk-in end and desk page follow. */
export function TimeZoneField({ current, hint, ...select }: { current?: string; hint?: string; error?: string } & ComponentProps<'select'>) {
  const { t } = useTranslation('inventory');
  return (
    <SelectField label={t('timeZone.label')} hint={hint ?? t('timeZone.hint', { zone: browserZone() })} {...select}>
      {timeZoneChoices(current).map((zone) => (
        <option key={zone} value={zone}>
          {zone}
        </option>
      ))}
    </SelectField>
  );
}
