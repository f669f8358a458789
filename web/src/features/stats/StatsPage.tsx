import type { Stats } from '../../api/types.js';
import { BarChart } from '../../components/BarChart.js';
import { Loaded, PageHeader } from '../../components/ui.js';
import { useMediaQuery, useTitle } from '../../hooks.js';
import { useStatistics } from './queries.js';
import './styles.css';

const TOTALS: { key: keyof Stats; label: string }[] = [
  { key: 'totalReservations', label: 'Reservations' },
  { key: 'totalDesks', label: 'Desks' },
  { key: 'totalRooms', label: 'Rooms' },
  { key: 'totalDepartments', label: 'Offices' },
  { key: 'totalEquipment', label: 'Equipment items' },
  { key: 'totalUsers', label: 'Users' },
  { key: 'totalReports', label: 'Defect reports' },
];

export function StatsPage() {
  useTitle('Statistics');
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
      <PageHeader title="Statistics">
        <button type="button" className="button-secondary" onClick={() => void stats.refetch()} disabled={stats.isFetching}>
          Refresh
        </button>
      </PageHeader>
      <Loaded query={stats} label="Loading statistics…">
        {(data) => (
          <>
            <ul className="totals" aria-label="Totals">
              {TOTALS.map(({ key, label }) => (
                <li key={key} className="total">
                  <span className="total-value">{String(data[key])}</span>
                  <span className="total-label">{label}</span>
                </li>
              ))}
            </ul>
            <p className="muted">Days are calendar days in UTC; the dashed line marks today.</p>
            <div className="charts">
              <BarChart
                title="Reservations per day, 15 days back and 15 ahead"
                series={data.dailyReservationsLast15DaysAndNext15Days}
                today={today}
                {...full}
              />
              <BarChart title="Reservations booked per day, last 30 days" series={data.dailyCreatedReservationsLast30Days} today={today} {...half} />
              <BarChart title="Defects reported per day, last 30 days" series={data.dailyCreatedReportsLast30Days} today={today} {...half} />
            </div>
          </>
        )}
      </Loaded>
    </div>
  );
}
