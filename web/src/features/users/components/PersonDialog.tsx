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
      refine: (values): FormErrors =>
        user && values.email !== user.email && !isEmail(values.email) ? { email: 'Enter a valid e-mail address, like name@example.com.' } : {},
    },
  );
  const saving = useSavePerson(user, onSaved);
  const failure = errorText(saving.error, 'This user');

  const self = user?.id === me.id;
  return (
    <Dialog title={user ? `Edit ${fullName(user)}` : 'Add a user'} onClose={onClose}>
      <form onSubmit={form.handleSubmit((body) => saving.mutate(body))} noValidate className="stack">
        {failure && <Alert kind="error">{failure}</Alert>}
        <div className="field-pair">
          <TextField label="First name" maxLength={SHORT_TEXT_MAX} {...form.field('firstName')} />
          <TextField label="Last name" maxLength={SHORT_TEXT_MAX} {...form.field('lastName')} />
        </div>
        <TextField label="E-mail" type="email" maxLength={SHORT_TEXT_MAX} {...form.field('email')} />
        <SelectField label="Role" {...form.field('role')}>
          <option value="USER">User: books desks and reports problems</option>
          <option value="ADMIN">Administrator: also manages offices, users and reports</option>
        </SelectField>
        <Checkbox label="Active (may sign in)" {...form.register('enabled')} disabled={self} />
        <Checkbox label="Signs in through the company directory (LDAP)" {...form.register('ldap')} />
        {self && <p className="field-hint">You cannot disable your own account.</p>}
        <FormButtons className="dialog-actions" onCancel={onClose} busy={saving.isPending} busyLabel="Saving…">
          {user ? 'Save' : 'Add the user'}
        </FormButtons>
      </form>
    </Dialog>
  );
}
