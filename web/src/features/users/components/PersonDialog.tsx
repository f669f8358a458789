import { useTranslation } from 'react-i18next';
import type { User } from '../../../api/types.js';
import { Alert, Checkbox, Dialog, FormButtons, SelectField, TextField } from '../../../components/ui.js';
import { SHORT_TEXT_MAX } from '../../../lib/fields.js';
import { useSchemaForm, type FormErrors } from '../../../lib/forms.js';
import { errorText } from '../../../lib/problems.js';
import { useUser } from '../../auth/AuthProvider.js';
import { EditPersonForm, fullName, isEmail, PersonForm } from '../person.js';
import { useSavePerson } from '../queries.js';

/** Adds a user, or changes one (`user`). */
export function PersonDialog({ user, onClose, onSaved }: { user?: User; onClose: () => void; onSaved: (user: User) => void }) {
  const { t } = useTranslation('users');
  const { user: me } = useUser();
  const form = useSchemaForm(
    user ? EditPersonForm : PersonForm,
    {
      firstName: user?.firstName ?? '',
      lastName: user?.lastName ?? '',
      email: user?.email ?? '',
      role: user?.role ?? 'USER',
      enabled: user?.enabled ?? true,
      ldap: user?.ldap ?? false,
    },
    {
      trim: ['firstName', 'lastName', 'email'],
      refine: (values): FormErrors => (user && values.email !== user.email && !isEmail(values.email) ? { email: t('problems:form.email') } : {}),
    },
  );
  const saving = useSavePerson(user, onSaved);
  const failure = errorText(saving.error, t('subject'));

  const self = user?.id === me.id;
  return (
    <Dialog title={user ? t('editOf', { name: fullName(user) }) : t('add')} onClose={onClose}>
      <form onSubmit={form.handleSubmit((body) => saving.mutate(body))} noValidate className="stack">
        {failure && <Alert kind="error">{failure}</Alert>}
        <div className="field-pair">
          <TextField label={t('person.firstName')} maxLength={SHORT_TEXT_MAX} {...form.field('firstName')} />
          <TextField label={t('person.lastName')} maxLength={SHORT_TEXT_MAX} {...form.field('lastName')} />
        </div>
        <TextField label={t('common:fields.email')} type="email" maxLength={SHORT_TEXT_MAX} {...form.field('email')} />
        <SelectField label={t('common:fields.role')} {...form.field('role')}>
          <option value="USER">{t('person.roleUser')}</option>
          <option value="ADMIN">{t('person.roleAdmin')}</option>
        </SelectField>
        <Checkbox label={t('person.enabled')} {...form.register('enabled')} disabled={self} />
        <Checkbox label={t('person.ldap')} {...form.register('ldap')} />
        {self && <p className="field-hint">{t('person.self')}</p>}
        <FormButtons className="dialog-actions" onCancel={onClose} busy={saving.isPending} busyLabel={t('common:saving')}>
          {user ? t('common:save') : t('person.submitAdd')}
        </FormButtons>
      </form>
    </Dialog>
  );
}
