import { useState } from 'react';
import type { Desk } from '../../../api/types.js';
import { Alert, Dialog, TextField } from '../../../components/ui.js';
import { errorText } from '../../../lib/problems.js';
import { deskPhrase, deskTitle } from '../../../lib/labels.js';
import { PersonPicker } from '../../users/components/PersonPicker.js';
import { useAssignDesk } from '../queries.js';

/** Midnight starting a local date (YYYY-MM-DD) in the browser's zone, as an instant. */
const startOfDay = (date: string) => new Date(`${date}T00:00:00`).toISOString();
const dayAfter = (date: string) => {
  const next = new Date(`${date}T00:00:00`);
  next.setDate(next.getDate() + 1);
  return next.toISOString();
};

/**
 * Assigns a FIXED desk to a person (docs/policies.md#booking-for-someone-else): a `fixed`
 * reservation of the desk for them over whole days, which they see as theirs and cannot move.
 */
export function AssignDeskDialog({ desk, onClose, onAssigned }: { desk: Desk; onClose: () => void; onAssigned: (text: string) => void }) {
  const today = new Date().toLocaleDateString('en-CA');
  const [from, setFrom] = useState(today);
  const [to, setTo] = useState(today);
  const assigning = useAssignDesk();
  const failure = errorText(assigning.error, 'This desk');
  const valid = from !== '' && to !== '' && to >= from;
  return (
    <Dialog title={`Assign ${deskPhrase(desk.name)}`} onClose={onClose}>
      <p>The person holds the desk from the first day to the last, whole days; they see it among their reservations.</p>
      {failure && <Alert kind="error">{failure}</Alert>}
      <div className="field-pair">
        <TextField label="First day" type="date" value={from} onChange={(event) => setFrom(event.target.value)} required />
        <TextField label="Last day" type="date" value={to} min={from} onChange={(event) => setTo(event.target.value)} required />
      </div>
      <PersonPicker
        label="Assign to"
        action="Assign the desk"
        busy={assigning.isPending || !valid}
        onPick={(userId) =>
          assigning.mutate(
            { body: { deskId: desk.id, userId, type: 'fixed', startTime: startOfDay(from), endTime: dayAfter(to) } },
            { onSuccess: () => onAssigned(`${deskTitle(desk.name)} is assigned from ${from} to ${to}.`) },
          )
        }
      />
      <div className="dialog-actions">
        <button type="button" className="button-secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
