import { useSettings } from '../api/settings.js';
import { Alert } from './ui.js';

/**
 * Tells an admin, where QR labels or calendar links are offered, that PUBLIC_URL reaches this
 * machine only (unset, it is http://localhost:<PORT>): what they print or hand out would open
 * nothing elsewhere (docs/configuration.md#public-url). Shows nothing otherwise.
 */
export function PublicUrlWarning({ what }: { what: string }) {
  const settings = useSettings();
  if (!settings?.publicUrlIsLocal) return null;
  return (
    <Alert kind="warning">
      {what} point at <code>{settings.publicUrl}</code>, which only this server itself can open: a phone or another computer cannot. Set <code>PUBLIC_URL</code>{' '}
      to the address people reach Deskbook at and restart the service.
    </Alert>
  );
}
