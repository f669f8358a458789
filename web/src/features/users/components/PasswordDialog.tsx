import { useTranslation } from 'react-i18next';
import type { User } from '../../../api/types.js';
import { Alert, Dialog, FormButtons, TextField } from '../../../components/ui.js';
import { useSettings } from '../../../api/settings.js';
import { useSchemaForm } from '../../../lib/forms.js';
import { errorText } from '../../../lib/problems.js';
import { NewPasswordField } from '../../password/NewPasswordField.js';
import { NEW_PASSWORD_RULES, NewPassword, NO_PASSWORD } from '../../password/new-password.js';
import { fullName } from '../person.js';
import { useSetPassword } from '../queries.js';
import { useUser } from '../../auth/AuthProvider.js';

/** An admin sets someone's password (it signs out their sessions). */
export function PasswordDialog({ user, onClose, onSaved }: { user: User; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation('users');
  const form = useSchemaForm(NewPassword, NO_PASSWORD, NEW_PASSWORD_RULES);
  const setting = useSetPassword(onSaved);
  const failure = errorText(setting.error, t('subject'));
  const { user: me } = useUser();
  // PASSWORD_CHANGE_AFTER_ADMIN_SET (docs/behaviour.md#passwords-chosen-by-someone-else).
  const mustReplace = useSettings()?.passwordChangeAfterAdminSet === true && user.id !== me.id;
  return (
    <Dialog title={t('setPasswordOf', { name: fullName(user) })} onClose={onClose}>
      <form
        onSubmit={form.handleSubmit(({ password }) => setting.mutate({ params: { path: { id: user.id } }, body: { password } }))}
        noValidate
        className="stack"
      >
        {failure && <Alert kind="error">{failure}</Alert>}
        <NewPasswordField {...form.field('password')} note={t(mustReplace ? 'password.noteMustReplace' : 'password.note', { firstName: user.firstName })} />
        <TextField label={t('password.repeat')} type="password" autoComplete="new-password" {...form.field('confirm')} />
        <FormButtons className="dialog-actions" cancelLabel={t('password.later')} onCancel={onClose} busy={setting.isPending} busyLabel={t('common:saving')}>
          {t('password.submit')}
        </FormButtons>
      </form>
    </Dialog>
  );
}
