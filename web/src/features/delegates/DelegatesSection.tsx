import { useTranslation } from 'react-i18next';
import { Alert, EmptyState, Loaded } from '../../components/ui.js';
import { errorText } from '../../lib/problems.js';
import { PersonPicker } from '../users/components/PersonPicker.js';
import { useAddDelegate, useDelegates, useRemoveDelegate } from './queries.js';
import './styles.css';

/** "Delegates" on the profile: the people who may book for the person (docs/policies.md#booking-for-someone-else). */
export function DelegatesSection() {
  const { t } = useTranslation('profile');
  const delegates = useDelegates();
  const adding = useAddDelegate();
  const removing = useRemoveDelegate();
  const failure = errorText(adding.error ?? removing.error, t('delegates.subject'));
  return (
    <section className="panel" aria-labelledby="delegates-heading">
      <h2 id="delegates-heading">{t('delegates.heading')}</h2>
      <p className="muted">{t('delegates.intro')}</p>
      {failure && <Alert kind="error">{failure}</Alert>}
      <Loaded query={delegates} label={t('delegates.loading')}>
        {(list) =>
          list.length === 0 ? (
            <EmptyState>{t('delegates.none')}</EmptyState>
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
                    aria-label={t('delegates.removeLabel', { name: `${delegate.firstName} ${delegate.lastName}` })}
                  >
                    {t('common:remove')}
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      <PersonPicker
        label={t('delegates.newDelegate')}
        action={t('delegates.add')}
        busy={adding.isPending}
        onPick={(userId) => adding.mutate({ body: { userId } })}
      />
    </section>
  );
}
