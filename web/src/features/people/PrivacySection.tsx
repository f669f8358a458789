import { Alert, Checkbox, EmptyState, Loaded } from '../../components/ui.js';
import { errorText } from '../../lib/problems.js';
import { PersonPicker } from '../users/components/PersonPicker.js';
import { usePrivacy, useSavePrivacy, useStar, useStarred, useUnstar } from './queries.js';
import './styles.css';

/** "Privacy" on the profile: the person's two switches (docs/people.md#a-persons-switches). */
export function PrivacySection() {
  const privacy = usePrivacy();
  const saving = useSavePrivacy();
  const failure = errorText(saving.error, 'Your privacy settings');
  return (
    <section className="panel" aria-labelledby="privacy-heading">
      <h2 id="privacy-heading">Privacy</h2>
      <p className="muted">What colleagues see of your bookings. Administrators always see them (for example for the evacuation list).</p>
      {failure && <Alert kind="error">{failure}</Alert>}
      <Loaded query={privacy} label="Loading your privacy settings…">
        {(current) => (
          <div className="privacy-switches">
            <Checkbox
              label="Hide my bookings from colleagues (I am left out of who's in and week views)"
              checked={current.hideBookings}
              disabled={saving.isPending}
              onChange={(event) => saving.mutate({ body: { hideBookings: event.target.checked } })}
            />
            <Checkbox
              label="Book anonymously (my desk shows only “booked” on the map and lobby display)"
              checked={current.bookAnonymously}
              disabled={saving.isPending}
              onChange={(event) => saving.mutate({ body: { bookAnonymously: event.target.checked } })}
            />
          </div>
        )}
      </Loaded>
    </section>
  );
}

/** "Starred colleagues" on the profile: whose week I follow (docs/people.md#the-week-view). */
export function StarredSection() {
  const starred = useStarred();
  const starring = useStar();
  const unstarring = useUnstar();
  const failure = errorText(starring.error ?? unstarring.error, 'This person');
  return (
    <section className="panel" aria-labelledby="starred-heading">
      <h2 id="starred-heading">Starred colleagues</h2>
      <p className="muted">Their bookings appear in your week on Who's in, as far as your organisation and they allow.</p>
      {failure && <Alert kind="error">{failure}</Alert>}
      <Loaded query={starred} label="Loading your starred colleagues…">
        {(list) =>
          list.length === 0 ? (
            <EmptyState>You starred no one.</EmptyState>
          ) : (
            <ul className="starred-list">
              {list.map((person) => (
                <li key={person.userId}>
                  <span className="break">
                    {person.firstName} {person.lastName}
                  </span>
                  <button
                    type="button"
                    className="button-secondary button-small"
                    disabled={unstarring.isPending}
                    onClick={() => unstarring.mutate({ params: { path: { userId: person.userId } } })}
                    aria-label={`Unstar ${person.firstName} ${person.lastName}`}
                  >
                    Unstar
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      <PersonPicker label="Star a colleague" action="Star" busy={starring.isPending} onPick={(userId) => starring.mutate({ params: { path: { userId } } })} />
    </section>
  );
}
