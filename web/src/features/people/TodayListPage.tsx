import { useState } from 'react';
import type { PersonIn } from '../../api/types.js';
import { Loaded, PageHeader } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { formatDay, formatRangeIn } from '../../lib/time.js';
import { OfficePicker, useFirstOffice } from '../inventory/OfficePicker.js';
import { usePeopleIn } from './queries.js';
import './styles.css';

/** Everyone booked in an office today, by name, for evacuation and first aiders (docs/people.md#todays-list). Admins only. */
export function TodayListPage() {
  useTitle("Today's list");
  const first = useFirstOffice();
  const [chosen, setChosen] = useState('');
  const departmentId = chosen || first;
  // No date: the service answers today in the office's time zone.
  const list = usePeopleIn(departmentId);
  return (
    <div className="page">
      <PageHeader title="In the building today">
        <button type="button" className="no-print" onClick={() => window.print()}>
          Print
        </button>
      </PageHeader>
      <div className="field-row no-print">
        <OfficePicker value={departmentId} onChange={setChosen} />
      </div>
      {departmentId && (
        <Loaded query={list} label="Loading today's list…">
          {(data) => {
            // One line per person and booking, by name; a person in several teams once.
            const seen = new Map<string, PersonIn>();
            for (const person of [...data.teams.flatMap((group) => group.people), ...data.withoutTeam])
              seen.set(`${person.userId}-${person.startTime}`, person);
            const people = [...seen.values()].sort((a, b) => a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName));
            return (
              <section className="today-list" aria-labelledby="today-heading">
                <h2 id="today-heading">
                  {formatDay(data.date)}: {data.booked} booked
                </h2>
                {data.anonymous > 0 && <p>{data.anonymous} more booked; their names are not shown to you.</p>}
                <div className="table-scroll" role="region" aria-label="Everyone in the building today" tabIndex={0}>
                  <table>
                    <thead>
                      <tr>
                        <th scope="col">Name</th>
                        <th scope="col">Desk</th>
                        <th scope="col">Room</th>
                        <th scope="col">Time</th>
                        <th scope="col">Present</th>
                      </tr>
                    </thead>
                    <tbody>
                      {people.map((person) => (
                        <tr key={`${person.userId}-${person.startTime}`}>
                          <td>
                            {person.lastName}, {person.firstName}
                          </td>
                          <td>{person.deskName ?? '—'}</td>
                          <td>{person.roomName ?? '—'}</td>
                          <td>{formatRangeIn(person.startTime, person.endTime, data.timeZone)}</td>
                          <td>{person.checkedIn === true ? 'checked in' : person.checkedIn === false ? 'not yet' : ''}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </section>
            );
          }}
        </Loaded>
      )}
    </div>
  );
}
