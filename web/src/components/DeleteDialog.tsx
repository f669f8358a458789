import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dependentsMessage, problemMessage, problemOf, type Problem } from '../lib/problems.js';
import { Alert, Dialog } from './ui.js';

export interface DeleteDialogProps {
  title: string;
  question: string;
  /** "This room": used in messages. */
  subject: string;
  /** What a forced delete removes, shown when the plain delete was refused; absent: no force option. */
  forceNote?: string;
  /** Sends the delete (`force`: everything under it too). */
  remove: (force: boolean) => Promise<unknown>;
  /** What the delete makes stale (api/query.ts, STALE_AFTER). */
  invalidates: readonly string[];
  onDeleted: () => void;
  onClose: () => void;
}

/**
 * Confirms a delete. Inventory deletes refuse (409 HAS_DEPENDENTS) while children or future
 * reservations remain; the dialog then explains what is in the way and offers to delete it all.
 */
export function DeleteDialog({ title, question, subject, forceNote, remove, invalidates, onDeleted, onClose }: DeleteDialogProps) {
  const { t } = useTranslation();
  const [blocked, setBlocked] = useState<Problem>();
  const [error, setError] = useState<string>();
  const mutation = useMutation({ mutationFn: remove, meta: { invalidates }, onSuccess: onDeleted });

  const run = (force: boolean) => {
    setError(undefined);
    mutation.mutate(force, {
      onError: (failure) => {
        const problem = problemOf(failure);
        if (problem.code === 'HAS_DEPENDENTS' && forceNote && !force) setBlocked(problem);
        else setError(problemMessage(problem, subject));
      },
    });
  };
  const busy = mutation.isPending;

  return (
    <Dialog title={title} onClose={onClose}>
      {blocked ? (
        <>
          <Alert kind="warning">
            <p>
              <strong>{t('deleteDialog.notAlone', { subject })}</strong> {dependentsMessage(blocked)}
            </p>
            <p>{forceNote}</p>
          </Alert>
          {error && <Alert kind="error">{error}</Alert>}
          <div className="dialog-actions">
            <button type="button" className="button-secondary" onClick={onClose} disabled={busy}>
              {t('deleteDialog.keep')}
            </button>
            <button type="button" className="button-danger" onClick={() => run(true)} disabled={busy}>
              {busy ? t('deleting') : t('deleteDialog.deleteAll')}
            </button>
          </div>
        </>
      ) : (
        <>
          <p>{question}</p>
          {error && <Alert kind="error">{error}</Alert>}
          <div className="dialog-actions">
            <button type="button" className="button-secondary" onClick={onClose} disabled={busy}>
              {t('cancel')}
            </button>
            <button type="button" className="button-danger" onClick={() => run(false)} disabled={busy}>
              {busy ? t('deleting') : t('delete')}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
