import { Type } from '@sinclair/typebox';
import { useSettings } from '../../api/settings.js';
import { PublicFrame } from '../../components/PublicFrame.js';
import { Alert, SubmitButton, TextField } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { EmailInput } from '../../lib/fields.js';
import { useSchemaForm } from '../../lib/forms.js';
import { errorText } from '../../lib/problems.js';
import { Link } from '../../router.js';
import { useForgotPassword } from './queries.js';

const ForgotForm = Type.Object({ email: EmailInput() });

export function ForgotPasswordPage() {
  useTitle('Forgot password');
  const form = useSchemaForm(ForgotForm, { email: '' }, { trim: ['email'] });
  const sending = useForgotPassword();
  const failure = errorText(sending.error);
  // Without a mail server no link can be sent: say so instead of promising one (docs/configuration.md#mail).
  const mail = useSettings()?.mailConfigured;

  return (
    <PublicFrame title="Forgot your password?">
      {mail === false ? (
        <Alert kind="info">
          This Deskbook cannot send mail (no mail server is set up), so it cannot mail you a link. Ask an admin to set a new password for you: they can do it
          under Users.
        </Alert>
      ) : sending.isSuccess ? (
        <Alert kind="success">If an account with that address exists, we have sent it a link to choose a new password. The link is valid for one hour.</Alert>
      ) : (
        <>
          <p>Enter your e-mail address and we will send you a link to choose a new password.</p>
          {failure && <Alert kind="error">{failure}</Alert>}
          <form onSubmit={form.handleSubmit(({ email }) => sending.mutate(email))} noValidate className="stack">
            <TextField label="E-mail" type="email" autoComplete="email" {...form.field('email')} autoFocus />
            <SubmitButton busy={sending.isPending} busyLabel="Sending…">
              Send the link
            </SubmitButton>
          </form>
        </>
      )}
      <p className="public-footer">
        <Link to="/sign-in">Back to sign-in</Link>
      </p>
    </PublicFrame>
  );
}
