import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, EmptyState, Loaded, PageHeader, TextField } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { errorText } from '../../lib/problems.js';
import { formatDateTime } from '../../lib/time.js';
import { OfficePicker, useFirstOffice } from '../inventory/OfficePicker.js';
import { useCreateDisplay, useDisplays, useRevokeDisplay } from './queries.js';

/** Admins: the lobby displays of an office, their creation (the address shown once) and revocation (docs/people.md#the-lobby-display). */
export function DisplaysPage() {
  const { t } = useTranslation('displays');
  useTitle(t('title'));
  const first = useFirstOffice();
  const [chosen, setChosen] = useState('');
  const departmentId = chosen || first;
  const [name, setName] = useState('');
  const displays = useDisplays(departmentId);
  const creating = useCreateDisplay();
  const revoking = useRevokeDisplay();
  const failure = errorText(creating.error ?? revoking.error, t('subject'));
  return (
    <div className="page page-narrow">
      <PageHeader title={t('title')} />
      <p className="muted">{t('lead')}</p>
      <OfficePicker value={departmentId} onChange={setChosen} />
      {failure && <Alert kind="error">{failure}</Alert>}
      {creating.data && (
        <Alert kind="success">
          {t('created')} <code className="break">{creating.data.url}</code>
        </Alert>
      )}
      {departmentId && (
        <>
          <section className="panel" aria-labelledby="displays-heading">
            <h2 id="displays-heading">{t('listHeading')}</h2>
            <Loaded query={displays} label={t('loading')}>
              {(list) =>
                list.length === 0 ? (
                  <EmptyState>{t('empty')}</EmptyState>
                ) : (
                  <ul className="delegate-list">
                    {list.map((display) => (
                      <li key={display.id}>
                        <span className="break">
                          {display.name} <span className="muted">{t('since', { time: formatDateTime(display.createdAt) })}</span>
                        </span>
                        <button
                          type="button"
                          className="button-secondary button-small"
                          disabled={revoking.isPending}
                          onClick={() => revoking.mutate({ params: { path: { id: display.id } } })}
                          aria-label={t('revokeLabel', { name: display.name })}
                        >
                          {t('revoke')}
                        </button>
                      </li>
                    ))}
                  </ul>
                )
              }
            </Loaded>
          </section>
          <form
            className="panel"
            aria-labelledby="new-display-heading"
            onSubmit={(event) => {
              event.preventDefault();
              if (name.trim()) creating.mutate({ params: { path: { departmentId } }, body: { name: name.trim() } }, { onSuccess: () => setName('') });
            }}
          >
            <h2 id="new-display-heading">{t('new')}</h2>
            <TextField label={t('where')} value={name} maxLength={100} onChange={(event) => setName(event.target.value)} placeholder={t('wherePlaceholder')} />
            <button type="submit" disabled={creating.isPending || !name.trim()}>
              {t('create')}
            </button>
          </form>
        </>
      )}
    </div>
  );
}
