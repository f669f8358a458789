import type { PeopleIn, PersonIn } from '../../api/types.js';
import { EmptyState } from '../../components/ui.js';
import { Link } from '../../router.js';
import { formatRangeIn } from '../../lib/time.js';

const CHECK_IN = (person: PersonIn) => (person.checkedIn === true ? 'checked in' : person.checkedIn === false ? 'not checked in' : null);

function PersonLine({ person, timeZone }: { person: PersonIn; timeZone: string }) {
  const checkIn = CHECK_IN(person);
  return (
    <li>
      <strong>
        {person.firstName} {person.lastName}
      </strong>{' '}
      <span className="muted">{formatRangeIn(person.startTime, person.endTime, timeZone)}</span>
      {person.deskId ? (
        <>
          {' '}
          · <Link to={`/d/${person.deskId}`}>{person.deskName}</Link>
          {person.roomName && <span className="muted"> in {person.roomName}</span>}
        </>
      ) : (
        <span className="muted"> · where they sit is not shown</span>
      )}
      {checkIn && <span className={`people-check ${person.checkedIn ? 'people-check-in' : ''}`}> · {checkIn}</span>}
    </li>
  );
}

/** Who's in one office on one day, by team (docs/people.md#who-is-in). */
export function PeopleInList({ data }: { data: PeopleIn }) {
  const shown = data.teams.length > 0 || data.withoutTeam.length > 0;
  return (
    <>
      <p className="people-summary" aria-live="polite">
        {data.booked} booked · {data.checkedIn} checked in
        {data.anonymous > 0 && <> · {data.anonymous} without a name shown (booked)</>}
        {data.truncated && <> · only the first bookings are listed</>}
      </p>
      {!shown && <EmptyState>No names to show for this day.</EmptyState>}
      {data.teams.map((group) => (
        <section key={group.team.id} className="people-team" aria-labelledby={`team-${group.team.id}`}>
          <h3 id={`team-${group.team.id}`}>{group.team.name}</h3>
          <ul className="people-list">
            {group.people.map((person) => (
              <PersonLine key={`${group.team.id}-${person.userId}-${person.startTime}`} person={person} timeZone={data.timeZone} />
            ))}
          </ul>
        </section>
      ))}
      {data.withoutTeam.length > 0 && (
        <section className="people-team" aria-labelledby="team-none">
          <h3 id="team-none">No team</h3>
          <ul className="people-list">
            {data.withoutTeam.map((person) => (
              <PersonLine key={`${person.userId}-${person.startTime}`} person={person} timeZone={data.timeZone} />
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
