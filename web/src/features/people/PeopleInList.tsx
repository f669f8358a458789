import { useTranslation } from 'react-i18next';
import type { PeopleIn, PersonIn } from '../../api/types.js';
import { EmptyState } from '../../components/ui.js';
import { Link } from '../../router.js';
import { formatRangeIn } from '../../lib/time.js';

function PersonLine({ person, timeZone }: { person: PersonIn; timeZone: string }) {
  const { t } = useTranslation('people');
  const checkIn = person.checkedIn === true ? t('day.checkedIn') : person.checkedIn === false ? t('day.notCheckedIn') : null;
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
          {person.roomName && <span className="muted"> {t('day.inRoom', { room: person.roomName })}</span>}
        </>
      ) : (
        <span className="muted"> · {t('day.seatHidden')}</span>
      )}
      {checkIn && <span className={`people-check ${person.checkedIn ? 'people-check-in' : ''}`}> · {checkIn}</span>}
    </li>
  );
}

/** Who's in one office on one day, by team (docs/people.md#who-is-in). */
export function PeopleInList({ data }: { data: PeopleIn }) {
  const { t } = useTranslation('people');
  const shown = data.teams.length > 0 || data.withoutTeam.length > 0;
  return (
    <>
      <p className="people-summary" aria-live="polite">
        {t('day.summary', { count: data.booked, checkedIn: data.checkedIn })}
        {data.anonymous > 0 && <> · {t('day.anonymous', { count: data.anonymous })}</>}
        {data.truncated && <> · {t('day.truncated')}</>}
      </p>
      {!shown && <EmptyState>{t('day.noNames')}</EmptyState>}
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
          <h3 id="team-none">{t('day.noTeam')}</h3>
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
