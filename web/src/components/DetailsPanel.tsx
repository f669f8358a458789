import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from './ui.js';

/**
 * The "Details" panel of an item being edited: failure and "Saved." messages, the form (its fields,
 * then "Delete the …" and Save) and, once Delete is pressed, the delete dialog.
 */
export function DetailsPanel({
  headingId,
  error,
  saved,
  busy,
  onSubmit,
  deleteLabel,
  deleteDialog,
  children,
}: {
  headingId: string;
  error?: string;
  saved: boolean;
  busy: boolean;
  onSubmit: (event: FormEvent) => void;
  /** "Delete the room" */
  deleteLabel: string;
  /** The delete dialog, given the function that closes it. */
  deleteDialog: (close: () => void) => ReactNode;
  /** The fields. */
  children: ReactNode;
}) {
  const { t } = useTranslation('booking');
  const [deleting, setDeleting] = useState(false);
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('details.heading')}</h2>
      {error && <Alert kind="error">{error}</Alert>}
      {saved && <Alert kind="success">{t('details.saved')}</Alert>}
      <form onSubmit={onSubmit} noValidate className="stack">
        {children}
        <div className="form-actions">
          <button type="button" className="button-danger" onClick={() => setDeleting(true)}>
            {deleteLabel}
          </button>
          <button type="submit" className="button-primary" disabled={busy}>
            {busy ? t('common:saving') : t('common:save')}
          </button>
        </div>
      </form>
      {deleting && deleteDialog(() => setDeleting(false))}
    </section>
  );
}
