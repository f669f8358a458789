import { useState } from 'react';
import { Loaded, PageHeader, TextField } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { formatDay, localDate } from '../../lib/time.js';
import { OfficePicker, useFirstOffice } from '../inventory/OfficePicker.js';
import { PeopleInList } from './PeopleInList.js';
import { usePeopleIn, usePeopleWeek } from './queries.js';
import './styles.css';

/** Who's in: one office's day by team, and the week of my teams and starred colleagues (docs/people.md). */
export function WhoIsInPage() {
  useTitle("Who's in");
  const first = useFirstOffice();
  const [chosen, setChosen] = useState('');
  const departmentId = chosen || first;
  const [date, setDate] = useState(() => localDate(new Date()));
  const day = usePeopleIn(departmentId, date);
  return (
    <div className="page">
      <PageHeader title="Who's in" />
      <p className="muted">Names appear as your organisation and each person chose (docs: People). Everyone else is counted as booked.</p>
      <div className="field-row" role="group" aria-label="Office and day">
        <OfficePicker value={departmentId} onChange={setChosen} />
        <TextField label="Day" type="date" value={date} onChange={(event) => event.target.value && setDate(event.target.value)} />
      </div>
      <section className="panel" aria-labelledby="day-heading">
        <h2 id="day-heading">{formatDay(date)}</h2>
        {departmentId ? (
          <Loaded query={day} label="Loading who's in…">
            {(data) => <PeopleInList data={data} />}
          </Loaded>
        ) : (
          <p>Choose an office.</p>
        )}
      </section>
      <WeekSection from={date} />
    </div>
  );
}

function WeekSection({ from }: { from: string }) {
  const week = usePeopleWeek(from);
  return (
    <section className="panel" aria-labelledby="week-heading">
      <h2 id="week-heading">My teams and starred colleagues this week</h2>
      <Loaded query={week} label="Loading the week…">
        {(data) => {
          const days = data.anonymous.map((entry) => entry.date);
          return (
            // Scrolls sideways on its own on a phone; focusable so a keyboard can scroll it.
            <div className="table-scroll" role="region" aria-label="The week, day by day" tabIndex={0}>
              <table className="people-week">
                <caption className="visually-hidden">Where each person is booked, day by day</caption>
                <thead>
                  <tr>
                    <th scope="col">Person</th>
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
                        {person.firstName} {person.lastName}
                        {person.me ? ' (you)' : person.starred ? ' ★' : ''}
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
                    <th scope="row">Others (booked, names not shown)</th>
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
