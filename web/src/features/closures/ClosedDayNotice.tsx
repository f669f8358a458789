import { Alert } from '../../components/ui.js';
import type { Department } from '../../api/types.js';
import { departmentLabel } from '../../lib/labels.js';
import { formatDay } from '../../lib/time.js';
import { useClosedDays } from './queries.js';
import './styles.css';

/**
 * Says, above the free desks, that the chosen day is closed and why (docs/policies.md#closures-and-holidays):
 * everywhere, or in which offices. The search already leaves their desks out.
 */
export function ClosedDayNotice({ date, departments }: { date: string; departments: readonly Department[] }) {
  const closed = useClosedDays(date);
  const days = closed.data?.days ?? [];
  if (days.length === 0) return null;
  const where = (day: (typeof days)[number]) => {
    if (day.scope === 'EVERYWHERE') return 'every office';
    if (day.scope === 'BUILDING') return `${day.location} · ${day.building}`;
    const department = departments.find((candidate) => candidate.id === day.departmentId);
    return department ? departmentLabel(department) : 'one office';
  };
  return (
    <Alert kind="info">
      {days.length === 1 ? (
        <>
          {formatDay(date)} is closed in {where(days[0]!)}: {days[0]!.reason}. Desks there cannot be booked that day.
        </>
      ) : (
        <>
          {formatDay(date)} is closed in some offices; desks there cannot be booked that day:
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
