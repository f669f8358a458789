import { Alert, EmptyState, Loaded } from '../../components/ui.js';
import { errorText } from '../../lib/problems.js';
import { PersonPicker } from '../users/components/PersonPicker.js';
import { useAddDelegate, useDelegates, useRemoveDelegate } from './queries.js';
import './styles.css';

/** "Delegates" on the profile: the people who may book for the person (docs/policies.md#booking-for-someone-else). */
export function DelegatesSection() {
  const delegates = useDelegates();
  const adding = useAddDelegate();
  const removing = useRemoveDelegate();
  const failure = errorText(adding.error ?? removing.error, 'This person');
  return (
    <section className="panel" aria-labelledby="delegates-heading">
      <h2 id="delegates-heading">Delegates</h2>
      <p className="muted">Delegates may book, change and cancel desks for you. You are told each time, as your notification settings below say.</p>
      {failure && <Alert kind="error">{failure}</Alert>}
      <Loaded query={delegates} label="Loading your delegates…">
        {(list) =>
          list.length === 0 ? (
            <EmptyState>No one books for you.</EmptyState>
          ) : (
            <ul className="delegate-list">
              {list.map((delegate) => (
                <li key={delegate.userId}>
                  <span className="break">
                    {delegate.firstName} {delegate.lastName} <span className="muted">({delegate.email})</span>
                  </span>
                  <button
                    type="button"
                    className="button-secondary button-small"
                    disabled={removing.isPending}
                    onClick={() => removing.mutate({ params: { path: { userId: delegate.userId } } })}
                    aria-label={`Remove ${delegate.firstName} ${delegate.lastName} as a delegate`}
                  >
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      <PersonPicker label="New delegate" action="Add as delegate" busy={adding.isPending} onPick={(userId) => adding.mutate({ body: { userId } })} />
    </section>
  );
}
