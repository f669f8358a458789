import { useTranslation } from 'react-i18next';
import { useSettings } from '../api/settings.js';
import { mark, withElements } from '../lib/rich.js';
import { Alert } from './ui.js';

/**
 * Tells an admin, where QR labels or calendar links are offered, that PUBLIC_URL reaches this
 * machine only (unset, it is http://localhost:<PORT>): what they print or hand out would open
 * nothing elsewhere (docs/configuration.md#public-url). Shows nothing otherwise.
 */
export function PublicUrlWarning({ what }: { what: 'qrLabels' | 'calendarLinks' }) {
  const { t } = useTranslation();
  const settings = useSettings();
  if (!settings?.publicUrlIsLocal) return null;
  const text = t('publicUrlWarning', { what, url: mark('url'), key: mark('key') });
  return <Alert kind="warning">{withElements(text, { url: <code>{settings.publicUrl}</code>, key: <code>PUBLIC_URL</code> })}</Alert>;
}
