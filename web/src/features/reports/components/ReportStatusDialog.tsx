import { useState } from 'react';
import type { ReportWithStatus } from '../../../api/types.js';
import { Alert, Dialog, FormButtons, SelectField, TextArea } from '../../../components/ui.js';
import { errorText } from '../../../lib/problems.js';
import { REPORT_NOTE_MAX, REPORT_STATUSES } from '../../../lib/fields.js';
import { REPORT_STATUS_LABELS, useSetReportStatus } from '../queries.js';

/** An admin sets a report's status and the note its reporter sees (docs/behaviour.md#report-status). */
export function ReportStatusDialog({ item, onClose, onSaved }: { item: ReportWithStatus; onClose: () => void; onSaved: (message: string) => void }) {
  const [status, setStatus] = useState(item.status.status);
  const [note, setNote] = useState(item.status.note ?? '');
  const saving = useSetReportStatus();
  const failure = errorText(saving.error, 'This report');
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    saving.mutate(
      { params: { path: { id: item.report.id } }, body: { status, note } },
      { onSuccess: () => onSaved(`“${item.report.title}” is now ${REPORT_STATUS_LABELS[status]?.toLowerCase() ?? status}.`) },
    );
  };
  return (
    <Dialog title={`Status of “${item.report.title}”`} onClose={onClose}>
      <form onSubmit={submit} noValidate className="stack">
        {failure && <Alert kind="error">{failure}</Alert>}
        <SelectField label="Status" value={status} onChange={(event) => setStatus(event.target.value as typeof status)}>
          {REPORT_STATUSES.map((value) => (
            <option key={value} value={value}>
              {REPORT_STATUS_LABELS[value]}
            </option>
          ))}
        </SelectField>
        <TextArea
          label="Note to the reporter (optional)"
          rows={3}
          maxLength={REPORT_NOTE_MAX}
          value={note}
          onChange={(event) => setNote(event.target.value)}
          hint="The reporter sees the status and this note with their reports."
        />
        <FormButtons className="dialog-actions" onCancel={onClose} busy={saving.isPending} busyLabel="Saving…">
          Save the status
        </FormButtons>
      </form>
    </Dialog>
  );
}
