import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { onWaitingUpdate, waitingUpdate } from './register.js';

/**
 * "A new version is available — Reload" (docs/pwa.md#updates): shown on every page, signed in or
 * not, while a new service worker waits; the page never runs an old version without saying so.
 */
export function UpdatePrompt() {
  const { t } = useTranslation('common');
  const update = useSyncExternalStore(onWaitingUpdate, waitingUpdate, () => undefined);
  if (!update) return null;
  return (
    <div className="update-prompt" role="status">
      <span>{t('pwa.updateAvailable')}</span>
      <button type="button" className="button button-primary" onClick={update}>
        {t('pwa.reload')}
      </button>
    </div>
  );
}
