import { useAllowance } from './queries.js';
import './styles.css';

const WEEKDAY_WORDS: Record<string, string> = {
  MO: 'Mondays',
  TU: 'Tuesdays',
  WE: 'Wednesdays',
  TH: 'Thursdays',
  FR: 'Fridays',
  SA: 'Saturdays',
  SU: 'Sundays',
};
const PERIOD_WORDS: Record<string, string> = { DAY: 'that day', WEEK: 'this week', MONTH: 'this month' };

/**
 * What the signed-in person may still book this week (docs/policies.md#allowance), shown on Find a
 * desk before a refusal happens: each counted limit ("1 of 2 bookings left this week") and the
 * areas reserved for teams they are not in ("Sales floor: Sales' on Tuesdays"). Nothing when no rule binds them.
 */
export function AllowancePanel({ departmentId }: { departmentId?: string }) {
  const allowance = useAllowance(undefined, departmentId);
  const data = allowance.data;
  if (!data || (data.limits.length === 0 && data.closedAreas.length === 0)) return null;
  const weekly = data.limits.filter((limit) => limit.window.period !== 'DAY');
  return (
    <section className="allowance" aria-labelledby="allowance-heading">
      <h2 id="allowance-heading">Your booking allowance</h2>
      <ul>
        {weekly.map((limit) => (
          <li key={`${limit.rule.id}:${limit.window.from}`}>
            {limit.rule.kind === 'MAX_CONCURRENT'
              ? `${limit.remaining} of ${limit.limit} upcoming bookings left to hold at once`
              : `${limit.remaining} of ${limit.limit} ${limit.rule.kind === 'MAX_HOURS' ? 'hours' : 'bookings'} left ${PERIOD_WORDS[limit.window.period ?? 'WEEK']}`}
            {limit.rule.name ? ` (${limit.rule.name})` : ''}
          </li>
        ))}
        {data.closedAreas.map((area) => (
          <li key={area.id}>
            {area.name}: reserved for {area.teams.join(', ') || 'other teams'}
            {area.weekdays.length > 0 ? ` on ${area.weekdays.map((day) => WEEKDAY_WORDS[day]).join(', ')}` : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}
