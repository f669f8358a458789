import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PublicFrame } from '../../components/PublicFrame.js';
import { useTitle } from '../../hooks.js';
import { formatDateTime, formatRange } from '../../lib/time.js';
import { browserStorage, loadOfflineSnapshot } from '../../lib/offline.js';

/**
 * What the app shows when it opens without a connection to the server (docs/pwa.md#offline): the
 * person's upcoming reservations as My reservations last showed them, marked with when that was.
 * Nothing here can be changed; "Try again" reloads once the connection is back.
 */
export function OfflinePage() {
  const { t } = useTranslation('common');
  useTitle(t('pwa.offlineTitle'));
  const [snapshot] = useState(() => {
    const storage = browserStorage();
    return storage ? loadOfflineSnapshot(storage, new Date()) : undefined;
  });

  return (
    <PublicFrame title={t('pwa.offlineTitle')}>
      <div className="alert alert-warning" role="status">
        <div className="alert-text">{snapshot ? t('pwa.shownFrom', { time: formatDateTime(snapshot.savedAt) }) : t('pwa.nothingSaved')}</div>
      </div>
      {snapshot && (
        <section aria-labelledby="offline-upcoming">
          <h2 id="offline-upcoming">{t('pwa.upcoming')}</h2>
          {snapshot.entries.length === 0 ? (
            <p className="empty">{t('pwa.noUpcoming')}</p>
          ) : (
            <ul className="reservation-list">
              {snapshot.entries.map((entry) => (
                <li key={entry.id} className="reservation">
                  <div className="reservation-main">
                    <p className="reservation-time">{formatRange(entry.startTime, entry.endTime)}</p>
                    <p>
                      <strong>{entry.desk}</strong>
                      {entry.room && <> · {entry.room}</>}
                    </p>
                    {entry.department && <p className="muted">{entry.department}</p>}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      <p>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          {t('pwa.tryAgain')}
        </button>
      </p>
    </PublicFrame>
  );
}
