import { useTranslation } from 'react-i18next';
import { departmentLabel } from '../../lib/labels.js';
import { Alert } from '../../components/ui.js';
import type { Department } from '../../api/types.js';
import { formatDay } from '../../lib/time.js';
import { useClosedDays } from './queries.js';
import './styles.css';

/**
 * Says, above the free desks, that the chosen day is closed and why (docs/policies.md#closures-and-holidays):
 * everywhere, or in which offices. The search already leaves their desks out.
 */
export function ClosedDayNotice({ date, departments }: { date: string; departments: readonly Department[] }) {
  const { t } = useTranslation('booking');
  const closed = useClosedDays(date);
  const days = closed.data?.days ?? [];
  if (days.length === 0) return null;
  const where = (day: (typeof days)[number]) => {
    if (day.scope === 'EVERYWHERE') return t('closed.everyOffice');
    if (day.scope === 'BUILDING') return `${day.location} · ${day.building}`;
    const department = departments.find((candidate) => candidate.id === day.departmentId);
    return department ? departmentLabel(department) : t('closed.oneOffice');
  };
  return (
    <Alert kind="info">
      {days.length === 1 ? (
        <>{t('closed.one', { day: formatDay(date), where: where(days[0]!), reason: days[0]!.reason })}</>
      ) : (
        <>
          {t('closed.some', { day: formatDay(date) })}
          <ul className="closure-affected">
            {days.map((day) => (
              <li key={day.closureId}>
                {where(day)}: {day.reason}
              </li>
            ))}
          </ul>
        </>
      )}
    </Alert>
  );
}
