import { Type } from '@sinclair/typebox';
import { useTranslation } from 'react-i18next';
import { Alert, FormButtons, TextField } from '../../../components/ui.js';
import { Password, PasswordInput } from '../../../lib/fields.js';
import { NewPasswordField } from '../../password/NewPasswordField.js';
import { passwordsMatch, useSchemaForm } from '../../../lib/forms.js';
import { errorText } from '../../../lib/problems.js';
import { useChangeOwnPassword } from '../queries.js';

const PasswordChange = Type.Object({ currentPassword: PasswordInput(), newPassword: Password('New password'), confirm: Type.String() });
const EMPTY = { currentPassword: '', newPassword: '', confirm: '' };

/**
 * One's own password: the current one, then the new one twice (PUT /api/self/password; the
 * service signs out one's other sessions). On the profile page, and as the "Choose your password"
 * form that an account with a generated password must fill in first.
 */
export function PasswordChangeForm({
  submitLabel,
  success,
  onChanged,
  narrow,
}: {
  submitLabel: string;
  success?: string;
  onChanged?: () => void;
  narrow?: boolean;
}) {
  const { t } = useTranslation('auth');
  // A password someone else knows (printed in a log, set by an admin) is to be replaced by another
  // (docs/behaviour.md#passwords-chosen-by-someone-else); the service refuses the same one too.
  const form = useSchemaForm(PasswordChange, EMPTY, {
    refine: (values) => ({
      ...(values.newPassword === values.currentPassword ? { newPassword: t('password.otherThanCurrent') } : {}),
      ...passwordsMatch<typeof values>('newPassword')(values),
    }),
  });
  const changing = useChangeOwnPassword(() => {
    form.reset(EMPTY);
    onChanged?.();
  });
  const submit = form.handleSubmit(({ currentPassword, newPassword }) => changing.mutate({ body: { currentPassword, newPassword } }));
  const failure = errorText(changing.error);

  return (
    <>
      {failure && <Alert kind="error">{failure}</Alert>}
      {changing.isSuccess && success && <Alert kind="success">{success}</Alert>}
      <form onSubmit={submit} noValidate className="stack">
        <TextField label={t('password.current')} type="password" autoComplete="current-password" {...form.field('currentPassword')} />
        <div className={narrow ? 'stack' : 'field-pair'}>
          <NewPasswordField {...form.field('newPassword')} />
          <TextField label={t('password.repeat')} type="password" autoComplete="new-password" {...form.field('confirm')} />
        </div>
        <FormButtons busy={changing.isPending} busyLabel={t('password.busy')}>
          {submitLabel}
        </FormButtons>
      </form>
    </>
  );
}
