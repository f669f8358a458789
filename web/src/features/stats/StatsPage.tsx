import { useTranslation } from 'react-i18next';
import type { Stats } from '../../api/types.js';
import { BarChart } from '../../components/BarChart.js';
import { Loaded, PageHeader } from '../../components/ui.js';
import { useMediaQuery, useTitle } from '../../hooks.js';
import { useStatistics } from './queries.js';
import './styles.css';

/** The totals shown, each named by its key under `totals` in stats.json. */
const TOTALS: (keyof Stats)[] = ['totalReservations', 'totalDesks', 'totalRooms', 'totalDepartments', 'totalEquipment', 'totalUsers', 'totalReports'];

export function StatsPage() {
  const { t } = useTranslation('stats');
  useTitle(t('title'));
  const stats = useStatistics();
  const today = new Date().toISOString();
  // Charts are drawn about as wide as they show, so their text stays readable: two side by side
  // under one across the page on wide screens, one under the other on phones.
  const wide = useMediaQuery('(min-width: 900px)');
  const phone = useMediaQuery('(max-width: 599px)');
  const half = phone ? { width: 360, labels: 4 } : { width: 560, labels: 8 };
  const full = wide ? { width: 1100, labels: 16 } : half;
  return (
    <div className="page">
      <PageHeader title={t('title')}>
        <button type="button" className="button-secondary" onClick={() => void stats.refetch()} disabled={stats.isFetching}>
          {t('refresh')}
        </button>
      </PageHeader>
      <Loaded query={stats} label={t('loading')}>
        {(data) => (
          <>
            <ul className="totals" aria-label={t('totals')}>
              {TOTALS.map((key) => (
                <li key={key} className="total">
                  <span className="total-value">{String(data[key])}</span>
                  <span className="total-label">{t(`total.${key}`)}</span>
                </li>
              ))}
            </ul>
            <p className="muted">{t('daysNote')}</p>
            <div className="charts">
              <BarChart title={t('chart.reservations')} series={data.dailyReservationsLast15DaysAndNext15Days} today={today} {...full} />
              <BarChart title={t('chart.booked')} series={data.dailyCreatedReservationsLast30Days} today={today} {...half} />
              <BarChart title={t('chart.reports')} series={data.dailyCreatedReportsLast30Days} today={today} {...half} />
            </div>
          </>
        )}
      </Loaded>
    </div>
  );
}
