import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Desk } from '../../../api/types.js';
import { Alert, Dialog, Loading, TextField } from '../../../components/ui.js';
import { errorText } from '../../../lib/problems.js';
import { deskPhrase, deskTitle } from '../../../lib/labels.js';
import { PersonPicker } from '../../users/components/PersonPicker.js';
import { assignmentSpan, todayIn } from '../assignment.js';
import { useAssignDesk, useDepartmentSettings } from '../queries.js';

/**
 * Assigns a FIXED desk to a person (docs/policies.md#booking-for-someone-else): a `fixed`
 * reservation of the desk for them over whole days, which they see as theirs and cannot move.
 */
export function AssignDeskDialog({ desk, onClose, onAssigned }: { desk: Desk; onClose: () => void; onAssigned: (text: string) => void }) {
  // The days are the office's: its zone, not the browser's (docs/behaviour.md#office-time-zone).
  const { t } = useTranslation('inventory');
  const settings = useDepartmentSettings(desk.departmentId);
  return (
    <Dialog title={t('assign.title', { desk: deskPhrase(desk.name) })} onClose={onClose}>
      {settings.isPending ? (
        <Loading label={t('assign.loading')} />
      ) : settings.isError ? (
        <Alert kind="error">{errorText(settings.error, t('department.subject')) ?? t('assign.zoneFailed')}</Alert>
      ) : (
        <AssignForm desk={desk} timeZone={settings.data.timeZone} onAssigned={onAssigned} />
      )}
      <div className="dialog-actions">
        <button type="button" className="button-secondary" onClick={onClose}>
          {t('common:close')}
        </button>
      </div>
    </Dialog>
  );
}

function AssignForm({ desk, timeZone, onAssigned }: { desk: Desk; timeZone: string; onAssigned: (text: string) => void }) {
  const { t } = useTranslation('inventory');
  const today = todayIn(timeZone);
  const [from, setFrom] = useState(today);
  const [to, setTo] = useState(today);
  const assigning = useAssignDesk();
  const failure = errorText(assigning.error, t('desk.subject'));
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(from) && /^\d{4}-\d{2}-\d{2}$/.test(to) && to >= from;
  return (
    <>
      <p>{t('assign.explain', { timeZone })}</p>
      {failure && <Alert kind="error">{failure}</Alert>}
      <div className="field-pair">
        <TextField label={t('common:fields.firstDay')} type="date" value={from} onChange={(event) => setFrom(event.target.value)} required />
        <TextField label={t('common:fields.lastDay')} type="date" value={to} min={from} onChange={(event) => setTo(event.target.value)} required />
      </div>
      <PersonPicker
        label={t('assign.to')}
        action={t('assign.action')}
        busy={assigning.isPending || !valid}
        onPick={(userId) =>
          assigning.mutate(
            { body: { deskId: desk.id, userId, type: 'fixed', ...assignmentSpan(from, to, timeZone) } },
            { onSuccess: () => onAssigned(t('assign.done', { desk: deskTitle(desk.name), from, to, timeZone })) },
          )
        }
      />
    </>
  );
}
