import { useState } from 'react';
import { dependentsMessage, problemMessage, problemOf, type Problem } from '../lib/problems.js';
import { Alert, Dialog } from './ui.js';

/**
 * Confirms a delete. Inventory deletes refuse (409 HAS_DEPENDENTS) while children or future
 * reservations remain; the dialog then explains what is in the way and offers to delete it all.
 */
export function DeleteDialog({
  title,
  question,
  subject,
  forceNote,
  onDelete,
  onDeleted,
  onClose,
}: {
  title: string;
  question: string;
  /** "This room": used in messages. */
  subject: string;
  /** What a forced delete removes, shown when the plain delete was refused; absent: no force option. */
  forceNote?: string;
  onDelete: (force: boolean) => Promise<unknown>;
  onDeleted: () => void;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [blocked, setBlocked] = useState<Problem>();
  const [error, setError] = useState<string>();

  const run = async (force: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      await onDelete(force);
      onDeleted();
    } catch (failure) {
      const problem = problemOf(failure);
      if (problem.code === 'HAS_DEPENDENTS' && forceNote && !force) setBlocked(problem);
      else setError(problemMessage(problem, subject));
      setBusy(false);
    }
  };

  return (
    <Dialog title={title} onClose={onClose}>
      {blocked ? (
        <>
          <Alert kind="warning">
            <p>
              <strong>{subject} cannot be deleted on its own.</strong> {dependentsMessage(blocked, 'It')}
            </p>
            <p>{forceNote}</p>
          </Alert>
          {error && <Alert kind="error">{error}</Alert>}
          <div className="dialog-actions">
            <button type="button" className="button-secondary" onClick={onClose} disabled={busy}>
              Keep it
            </button>
            <button type="button" className="button-danger" onClick={() => void run(true)} disabled={busy}>
              {busy ? 'Deleting…' : 'Delete everything under it'}
            </button>
          </div>
        </>
      ) : (
        <>
          <p>{question}</p>
          {error && <Alert kind="error">{error}</Alert>}
          <div className="dialog-actions">
            <button type="button" className="button-secondary" onClick={onClose} disabled={busy}>
              Cancel
            </button>
            <button type="button" className="button-danger" onClick={() => void run(false)} disabled={busy}>
              {busy ? 'Deleting…' : 'Delete'}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
