import { useEffect, useId, useRef, type ComponentProps, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../lib/problems.js';

export function Alert({ kind, children, onDismiss }: { kind: 'error' | 'success' | 'info' | 'warning'; children: ReactNode; onDismiss?: () => void }) {
  const { t } = useTranslation();
  // Errors interrupt (alert); confirmations are announced politely (status).
  return (
    <div className={`alert alert-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      <div className="alert-text">{children}</div>
      {onDismiss && (
        <button type="button" className="button-icon" onClick={onDismiss} aria-label={t('dismiss')}>
          ×
        </button>
      )}
    </div>
  );
}

export function Loading({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <p className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      {label ?? t('loading')}
    </p>
  );
}

/** What Loaded needs of a query (TanStack Query's result has it). */
export interface QueryView<T> {
  data: T | undefined;
  error: unknown;
  refetch: () => unknown;
}

/**
 * Shows the loading and failure of a query; renders children with its data once there (the data
 * already cached stays on screen while it is read again). `subject` ("This office") names the
 * thing in failure messages.
 */
export function Loaded<T>({ query, label, subject, children }: { query: QueryView<T>; label?: string; subject?: string; children: (data: T) => ReactNode }) {
  const { t } = useTranslation();
  if (query.error) {
    return (
      <Alert kind="error">
        {errorText(query.error, subject)}{' '}
        <button type="button" className="button-link" onClick={() => void query.refetch()}>
          {t('tryAgain')}
        </button>
      </Alert>
    );
  }
  if (query.data === undefined) return <Loading label={label} />;
  return <>{children(query.data)}</>;
}

interface FieldShell {
  label: string;
  error?: string;
  hint?: string;
}

function FieldFrame({ id, label, error, hint, children }: FieldShell & { id: string; children: ReactNode }) {
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && !error && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** The id and ARIA members of a field's control, and its frame (label, hint, error) around it. */
function Field({
  label,
  error,
  hint,
  control,
}: FieldShell & { control: (aria: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode }) {
  const id = useId();
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      {control({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
    </FieldFrame>
  );
}

// Props include `ref` (React 19), so react-hook-form's register() can be spread onto these fields.
export function TextField({ label, error, hint, ...input }: FieldShell & ComponentProps<'input'>) {
  return <Field label={label} error={error} hint={hint} control={(aria) => <input {...aria} {...input} />} />;
}

export function TextArea({ label, error, hint, ...input }: FieldShell & ComponentProps<'textarea'>) {
  return <Field label={label} error={error} hint={hint} control={(aria) => <textarea {...aria} {...input} />} />;
}

/** The options of a select: an empty first one (`placeholder`), then one per item, named by `label`. */
export function Options<T extends { id: string }>({ placeholder, items, label }: { placeholder: string; items: readonly T[]; label: (item: T) => string }) {
  return (
    <>
      <option value="">{placeholder}</option>
      {items.map((item) => (
        <option key={item.id} value={item.id}>
          {label(item)}
        </option>
      ))}
    </>
  );
}

export function SelectField({ label, error, hint, children, ...select }: FieldShell & ComponentProps<'select'>) {
  return (
    <Field
      label={label}
      error={error}
      hint={hint}
      control={(aria) => (
        <select {...aria} {...select}>
          {children}
        </select>
      )}
    />
  );
}

/** A form's submit button, which says `busyLabel` (else its label) while the form is being sent. */
export function SubmitButton({ busy, busyLabel, small, children }: { busy: boolean; busyLabel?: string; small?: boolean; children: ReactNode }) {
  return (
    <button type="submit" className={small ? 'button-primary button-small' : 'button-primary'} disabled={busy}>
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}

/** A form's "Cancel" (or `cancelLabel`) and submit buttons, in a row of class `className`. */
export function FormButtons({
  className = 'form-actions',
  cancelLabel,
  onCancel,
  small,
  ...submit
}: {
  className?: string;
  cancelLabel?: string;
  onCancel?: () => void;
  busy: boolean;
  busyLabel?: string;
  small?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className={className}>
      {onCancel && (
        <button type="button" className={small ? 'button-secondary button-small' : 'button-secondary'} onClick={onCancel} disabled={submit.busy}>
          {cancelLabel ?? t('cancel')}
        </button>
      )}
      <SubmitButton small={small} {...submit} />
    </div>
  );
}

/** A page of items as a table (each row: the item's cells, then its actions) and its pager. */
export function ItemTable<T extends { id: string | number }>({
  columns,
  page,
  onPage,
  label,
  cells,
  actions,
}: {
  columns: string[];
  page: { content: T[]; number: number; totalPages: number };
  onPage: (page: number) => void;
  label: string;
  cells: (item: T) => ReactNode;
  actions: (item: T) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <table className="table">
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">{t('actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {page.content.map((item) => (
            <tr key={item.id}>
              {cells(item)}
              <td className="table-actions">{actions(item)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager page={page.number} totalPages={page.totalPages} onPage={onPage} label={label} />
    </>
  );
}

export function Checkbox({ label, ...input }: { label: string } & ComponentProps<'input'>) {
  return (
    <label className="checkbox">
      <input type="checkbox" {...input} />
      <span>{label}</span>
    </label>
  );
}

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="page-header">
      <h1>{title}</h1>
      {children && <div className="page-header-actions">{children}</div>}
    </div>
  );
}

/** Previous / next for a paged list; hidden when everything fits on one page. */
export function Pager({ page, totalPages, onPage, label }: { page: number; totalPages: number; onPage: (page: number) => void; label: string }) {
  const { t } = useTranslation();
  if (totalPages <= 1) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="button-secondary" disabled={page === 0} onClick={() => onPage(page - 1)}>
        {t('pager.previous')}
      </button>
      <span>{t('pager.page', { page: page + 1, totalPages })}</span>
      <button type="button" className="button-secondary" disabled={page + 1 >= totalPages} onClick={() => onPage(page + 1)}>
        {t('pager.next')}
      </button>
    </nav>
  );
}

/**
 * A modal dialog (native <dialog>: focus is kept inside, Escape closes it). Open while mounted.
 * Closed, it gives focus back to what had it before (the button or map desk that opened it), when
 * that is still on the page and nothing else took focus meanwhile (docs/behaviour.md#focus-after-booking):
 * the dialog is unmounted, not closed by the browser, which would do it itself.
 */
export function Dialog({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement instanceof HTMLElement || document.activeElement instanceof SVGElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      const now = document.activeElement;
      if (opener?.isConnected && (now === null || now === document.body || dialog?.contains(now))) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}
