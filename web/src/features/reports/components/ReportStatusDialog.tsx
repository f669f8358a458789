import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReportWithStatus } from '../../../api/types.js';
import { Alert, Dialog, FormButtons, SelectField, TextArea } from '../../../components/ui.js';
import { errorText } from '../../../lib/problems.js';
import { REPORT_NOTE_MAX, REPORT_STATUSES } from '../../../lib/fields.js';
import { useSetReportStatus } from '../queries.js';

/** An admin sets a report's status and the note its reporter sees (docs/behaviour.md#report-status). */
export function ReportStatusDialog({ item, onClose, onSaved }: { item: ReportWithStatus; onClose: () => void; onSaved: (message: string) => void }) {
  const { t } = useTranslation('reports');
  const [status, setStatus] = useState(item.status.status);
  const [note, setNote] = useState(item.status.note ?? '');
  const saving = useSetReportStatus();
  const failure = errorText(saving.error, t('subject'));
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    saving.mutate(
      { params: { path: { id: item.report.id } }, body: { status, note } },
      { onSuccess: () => onSaved(t('statusDialog.saved', { title: item.report.title, status })) },
    );
  };
  return (
    <Dialog title={t('statusDialog.title', { title: item.report.title })} onClose={onClose}>
      <form onSubmit={submit} noValidate className="stack">
        {failure && <Alert kind="error">{failure}</Alert>}
        <SelectField label={t('common:fields.status')} value={status} onChange={(event) => setStatus(event.target.value as typeof status)}>
          {REPORT_STATUSES.map((value) => (
            <option key={value} value={value}>
              {t('status', { status: value })}
            </option>
          ))}
        </SelectField>
        <TextArea
          label={t('statusDialog.note')}
          rows={3}
          maxLength={REPORT_NOTE_MAX}
          value={note}
          onChange={(event) => setNote(event.target.value)}
          hint={t('statusDialog.hint')}
        />
        <FormButtons className="dialog-actions" onCancel={onClose} busy={saving.isPending} busyLabel={t('common:saving')}>
          {t('statusDialog.submit')}
        </FormButtons>
      </form>
    </Dialog>
  );
}
