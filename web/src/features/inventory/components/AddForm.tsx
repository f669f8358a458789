import type { FormEventHandler, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, SubmitButton } from '../../../components/ui.js';
import '../styles.css';

/** The small "Add a room / a desk" form under a list: a heading, the failure if any, the fields and the button on one row. */
export function AddForm({
  title,
  submitLabel,
  onSubmit,
  failure,
  busy,
  children,
}: {
  title: string;
  submitLabel: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  failure: string | undefined;
  busy: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation('inventory');
  return (
    <form onSubmit={onSubmit} noValidate className="inline-form" aria-label={title}>
      <h3>{title}</h3>
      {failure && <Alert kind="error">{failure}</Alert>}
      <div className="field-row field-row-end">
        {children}
        <SubmitButton busy={busy} busyLabel={t('common:adding')}>
          {submitLabel}
        </SubmitButton>
      </div>
    </form>
  );
}
