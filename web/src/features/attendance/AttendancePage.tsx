import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BarChart } from '../../components/BarChart.js';
import { EmptyState, Loaded, PageHeader, Pager, SelectField, TextField } from '../../components/ui.js';
import { useMediaQuery, useTitle } from '../../hooks.js';
import { Link } from '../../router.js';
import { formatRange } from '../../lib/time.js';
import { mark, withElements } from '../../lib/rich.js';
import { departmentLabel, deskTitle } from '../../lib/labels.js';
import { useAllDepartments, useInventoryNames } from '../inventory/queries.js';
import { useOrganisationSettings } from '../organisation/queries.js';
import type { Attendance } from '../../api/types.js';
import { AttendanceBadge } from './AttendanceBadge.js';
import { ATTENDANCE_STATUSES, statusLabel, useAttendanceList, useNoShowRates, usePerson, type AttendanceStatus } from './queries.js';

const DAY = 86_400_000;
const isoDate = (moment: Date) => moment.toISOString().slice(0, 10);

/**
 * Admins: who checked in and who did not, filtered by office, status and week, the daily no-show
 * rates of the window, and a link to the office's check-in settings (docs/behaviour.md#attendance).
 */
export function AttendancePage() {
  // The statuses' words are the check-in page's (statusLabel).
  const { t } = useTranslation(['attendance', 'checkin']);
  useTitle(t('title'));
  const departments = useAllDepartments();
  const [departmentId, setDepartmentId] = useState<string>('');
  const [status, setStatus] = useState<AttendanceStatus | ''>('');
  const [weekStart, setWeekStart] = useState(() => isoDate(new Date(Date.now() - 6 * DAY)));
  const [page, setPage] = useState(0);
  const from = `${weekStart}T00:00:00Z`;
  const to = new Date(Date.parse(from) + 7 * DAY).toISOString();
  // Works-council mode shows no one's attendance per person (docs/people.md#works-council-mode): the list is not asked for.
  const aggregatesOnly = useOrganisationSettings().data?.worksCouncilMode ?? true;
  const list = useAttendanceList({ from, to, page, departmentId, status }, !aggregatesOnly);
  const rates = useNoShowRates(weekStart, isoDate(new Date(Date.parse(to) - DAY)), departmentId);
  const phone = useMediaQuery('(max-width: 599px)');
  const chart = phone ? { width: 360, labels: 4 } : { width: 560, labels: 7 };

  return (
    <div className="page">
      <PageHeader title={t('title')} />
      <div className="filters field-row" role="group" aria-label={t('filters')}>
        <SelectField
          label={t('common:fields.office')}
          value={departmentId}
          onChange={(event) => {
            setDepartmentId(event.target.value);
            setPage(0);
          }}
        >
          <option value="">{t('allOffices')}</option>
          {(departments.data ?? []).map((department) => (
            <option key={department.id} value={department.id}>
              {departmentLabel(department)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t('common:fields.status')}
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as AttendanceStatus | '');
            setPage(0);
          }}
        >
          <option value="">{t('anyStatus')}</option>
          {ATTENDANCE_STATUSES.map((value) => [value, statusLabel(value)] as const).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t('weekFrom')}
          type="date"
          value={weekStart}
          onChange={(event) => {
            if (event.target.value) setWeekStart(event.target.value);
            setPage(0);
          }}
        />
      </div>
      <section className="panel" aria-labelledby="rates-heading">
        <h2 id="rates-heading">{t('rates.heading')}</h2>
        <Loaded query={rates} label={t('rates.loading')}>
          {(data) => (
            <div className="charts">
              <BarChart title={t('rates.noShows')} series={data.days.map((day) => ({ date: day.date, count: day.noShows }))} {...chart} />
              <BarChart
                title={t('rates.rate')}
                series={data.days.map((day) => ({ date: day.date, count: day.noShowRate === null ? 0 : Math.round(day.noShowRate * 100) }))}
                {...chart}
              />
            </div>
          )}
        </Loaded>
      </section>
      <section className="panel" aria-labelledby="list-heading">
        <h2 id="list-heading">{t('list.heading')}</h2>
        {aggregatesOnly ? (
          <p>{withElements(t('list.worksCouncil', { page: mark('page') }), { page: <Link to="/admin/privacy">{t('list.privacyPage')}</Link> })}</p>
        ) : (
          <Loaded query={list} label={t('list.loading')}>
            {(data) =>
              data.content.length === 0 ? (
                <EmptyState>{t('list.none')}</EmptyState>
              ) : (
                <>
                  <ul className="reservation-list">
                    {data.content.map((item) => (
                      <AttendanceRow key={item.reservationId} item={item} />
                    ))}
                  </ul>
                  <Pager page={data.number} totalPages={data.totalPages} onPage={setPage} label={t('list.pages')} />
                </>
              )
            }
          </Loaded>
        )}
      </section>
      {departmentId && (
        <section className="panel" aria-labelledby="settings-heading">
          <h2 id="settings-heading">{t('settings.heading')}</h2>
          {/* They live on the office's page, with its time zone (docs/behaviour.md#attendance-settings). */}
          <p>
            {withElements(t('settings.text', { page: mark('page') }), {
              page: <Link to={`/admin/departments/${departmentId}`}>{t('settings.officePage')}</Link>,
            })}
          </p>
        </section>
      )}
    </div>
  );
}

function AttendanceRow({ item }: { item: Attendance }) {
  // The statuses' words are the check-in page's (statusLabel).
  const { t } = useTranslation(['attendance', 'checkin']);
  const names = useInventoryNames(item);
  const person = usePerson(item.userId);
  return (
    <li className="reservation">
      <div className="reservation-main">
        <p className="reservation-time">{formatRange(item.startTime, item.endTime)}</p>
        <p>
          <strong>{person.data ? `${person.data.firstName} ${person.data.lastName}` : t('row.someone')}</strong> ·{' '}
          {names.deskName ? deskTitle(names.deskName) : t('row.deskUnknown')}
          {names.room && <> {t('row.inRoom', { room: names.room.name })}</>}
        </p>
      </div>
      <AttendanceBadge attendance={item} />
    </li>
  );
}
