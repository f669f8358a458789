import { useTranslation } from 'react-i18next';
import { useAllowance } from './queries.js';
import { reservedText } from './reserved.js';
import './styles.css';

/**
 * What the signed-in person may still book this week (docs/policies.md#allowance), shown on Find a
 * desk before a refusal happens: each counted limit ("1 of 2 bookings left this week") and the
 * areas reserved for teams they are not in ("Sales floor: Sales' on Tuesdays"). Nothing when no rule binds them.
 */
export function AllowancePanel({ departmentId }: { departmentId?: string }) {
  const { t } = useTranslation('policies');
  const allowance = useAllowance(undefined, departmentId);
  const data = allowance.data;
  if (!data || (data.limits.length === 0 && data.closedAreas.length === 0)) return null;
  const weekly = data.limits.filter((limit) => limit.window.period !== 'DAY');
  return (
    <section className="allowance" aria-labelledby="allowance-heading">
      <h2 id="allowance-heading">{t('allowance.heading')}</h2>
      <ul>
        {weekly.map((limit) => (
          <li key={`${limit.rule.id}:${limit.window.from}`}>
            {t(limit.rule.kind === 'MAX_CONCURRENT' ? 'allowance.concurrent' : limit.rule.kind === 'MAX_HOURS' ? 'allowance.hours' : 'allowance.bookings', {
              remaining: limit.remaining,
              count: limit.limit,
              period: limit.window.period ?? 'WEEK',
              named: limit.rule.name ? 'yes' : 'no',
              name: limit.rule.name ?? '',
            })}
          </li>
        ))}
        {data.closedAreas.map((area) => (
          <li key={area.id}>{reservedText(area)}</li>
        ))}
      </ul>
    </section>
  );
}
