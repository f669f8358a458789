import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client.js';
import { errorText } from '../lib/problems.js';

/**
 * "Print QR labels" of a room (docs/behaviour.md#desk-qr-codes): the sheet is read with the
 * session's token and opened in a new tab as a local copy (a blob: page), where the browser prints
 * it. That copy inherits the app's Content-Security-Policy, so the sheet's styles come from a
 * same-origin stylesheet; a blob: page resolves no relative address, hence the <base>.
 */
export function withBase(sheet: string, origin: string): string {
  return sheet.replace(/<head>/i, `<head><base href="${origin}/">`);
}

export function PrintLabelsButton({ roomId }: { roomId: string }) {
  const { t } = useTranslation('inventory');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const open = async () => {
    setBusy(true);
    setError(undefined);
    // Opened at once (inside the click) so that pop-up blockers allow it; filled when the sheet arrives.
    const tab = window.open('', '_blank');
    try {
      const { data, error: failure } = await api.GET('/api/rooms/{roomId}/qr-labels', { params: { path: { roomId } }, parseAs: 'text' });
      if (failure !== undefined || data === undefined) throw failure ?? new Error('no sheet');
      const url = URL.createObjectURL(new Blob([withBase(data, window.location.origin)], { type: 'text/html' }));
      if (tab) tab.location.href = url;
      else window.location.href = url;
    } catch (caught) {
      tab?.close();
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const failure = errorText(error, t('room.subject'));
  return (
    <>
      <button type="button" className="button-secondary" onClick={() => void open()} disabled={busy}>
        {busy ? t('room.preparingLabels') : t('room.printLabels')}
      </button>
      {failure && (
        <span role="alert" className="field-error">
          {failure}
        </span>
      )}
    </>
  );
}
