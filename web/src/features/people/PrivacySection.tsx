import { useTranslation } from 'react-i18next';
import { Alert, Checkbox, EmptyState, Loaded } from '../../components/ui.js';
import { errorText } from '../../lib/problems.js';
import { PersonPicker } from '../users/components/PersonPicker.js';
import { usePrivacy, useSavePrivacy, useStar, useStarred, useUnstar } from './queries.js';
import './styles.css';

/** "Privacy" on the profile: the person's two switches (docs/people.md#a-persons-switches). */
export function PrivacySection() {
  const { t } = useTranslation('people');
  const privacy = usePrivacy();
  const saving = useSavePrivacy();
  const failure = errorText(saving.error, t('privacy.subject'));
  return (
    <section className="panel" aria-labelledby="privacy-heading">
      <h2 id="privacy-heading">{t('privacy.heading')}</h2>
      <p className="muted">{t('privacy.lead')}</p>
      {failure && <Alert kind="error">{failure}</Alert>}
      <Loaded query={privacy} label={t('privacy.loading')}>
        {(current) => (
          <div className="privacy-switches">
            <Checkbox
              label={t('privacy.hide')}
              checked={current.hideBookings}
              disabled={saving.isPending}
              onChange={(event) => saving.mutate({ body: { hideBookings: event.target.checked } })}
            />
            <Checkbox
              label={t('privacy.anonymous')}
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
  const { t } = useTranslation('people');
  const starred = useStarred();
  const starring = useStar();
  const unstarring = useUnstar();
  const failure = errorText(starring.error ?? unstarring.error, t('starred.subject'));
  return (
    <section className="panel" aria-labelledby="starred-heading">
      <h2 id="starred-heading">{t('starred.heading')}</h2>
      <p className="muted">{t('starred.lead')}</p>
      {failure && <Alert kind="error">{failure}</Alert>}
      <Loaded query={starred} label={t('starred.loading')}>
        {(list) =>
          list.length === 0 ? (
            <EmptyState>{t('starred.none')}</EmptyState>
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
                    aria-label={t('starred.unstarOf', { name: `${person.firstName} ${person.lastName}` })}
                  >
                    {t('starred.unstar')}
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      <PersonPicker
        label={t('starred.pick')}
        action={t('starred.star')}
        busy={starring.isPending}
        onPick={(userId) => starring.mutate({ params: { path: { userId } } })}
      />
    </section>
  );
}
