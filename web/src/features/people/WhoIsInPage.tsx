import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Loaded, PageHeader, TextField } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { formatDay, localDate } from '../../lib/time.js';
import { OfficePicker, useFirstOffice } from '../inventory/OfficePicker.js';
import { PeopleInList } from './PeopleInList.js';
import { usePeopleIn, usePeopleWeek } from './queries.js';
import './styles.css';

/** Who's in: one office's day by team, and the week of my teams and starred colleagues (docs/people.md). */
export function WhoIsInPage() {
  const { t } = useTranslation('people');
  useTitle(t('whoIsIn.title'));
  const first = useFirstOffice();
  const [chosen, setChosen] = useState('');
  const departmentId = chosen || first;
  const [date, setDate] = useState(() => localDate(new Date()));
  const day = usePeopleIn(departmentId, date);
  return (
    <div className="page">
      <PageHeader title={t('whoIsIn.title')} />
      <p className="muted">{t('whoIsIn.lead')}</p>
      <div className="field-row" role="group" aria-label={t('whoIsIn.filters')}>
        <OfficePicker value={departmentId} onChange={setChosen} />
        <TextField label={t('whoIsIn.day')} type="date" value={date} onChange={(event) => event.target.value && setDate(event.target.value)} />
      </div>
      <section className="panel" aria-labelledby="day-heading">
        <h2 id="day-heading">{formatDay(date)}</h2>
        {departmentId ? (
          <Loaded query={day} label={t('whoIsIn.loading')}>
            {(data) => <PeopleInList data={data} />}
          </Loaded>
        ) : (
          <p>{t('whoIsIn.chooseOffice')}</p>
        )}
      </section>
      <WeekSection from={date} />
    </div>
  );
}

function WeekSection({ from }: { from: string }) {
  const { t } = useTranslation('people');
  const week = usePeopleWeek(from);
  return (
    <section className="panel" aria-labelledby="week-heading">
      <h2 id="week-heading">{t('week.heading')}</h2>
      <Loaded query={week} label={t('week.loading')}>
        {(data) => {
          const days = data.anonymous.map((entry) => entry.date);
          return (
            // Scrolls sideways on its own on a phone; focusable so a keyboard can scroll it.
            <div className="table-scroll" role="region" aria-label={t('week.table')} tabIndex={0}>
              <table className="people-week">
                <caption className="visually-hidden">{t('week.caption')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('week.person')}</th>
                    {days.map((date) => (
                      <th scope="col" key={date}>
                        {formatDay(date)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {data.people.map((person) => (
                    <tr key={person.userId}>
                      <th scope="row">
                        {person.me
                          ? t('week.you', { name: `${person.firstName} ${person.lastName}` })
                          : person.starred
                            ? t('week.starred', { name: `${person.firstName} ${person.lastName}` })
                            : `${person.firstName} ${person.lastName}`}
                      </th>
                      {days.map((date) => {
                        const bookings = person.days.filter((entry) => entry.date === date);
                        return (
                          <td key={date}>
                            {bookings.length === 0 ? '—' : bookings.map((entry) => entry.location + (entry.deskName ? `, ${entry.deskName}` : '')).join('; ')}
                          </td>
                        );
                      })}
                    </tr>
                  ))}
                  <tr>
                    <th scope="row">{t('week.others')}</th>
                    {data.anonymous.map((entry) => (
                      <td key={entry.date}>{entry.count}</td>
                    ))}
                  </tr>
                </tbody>
              </table>
            </div>
          );
        }}
      </Loaded>
    </section>
  );
}
