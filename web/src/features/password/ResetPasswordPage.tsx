import { PublicFrame } from '../../components/PublicFrame.js';
import { Alert, SubmitButton, TextField } from '../../components/ui.js';
import { NewPasswordField } from './NewPasswordField.js';
import { useTitle } from '../../hooks.js';
import { useSchemaForm } from '../../lib/forms.js';
import { errorText } from '../../lib/problems.js';
import { Link, useLocation } from '../../router.js';
import { NEW_PASSWORD_RULES, NewPassword, NO_PASSWORD } from './new-password.js';
import { useResetPassword } from './queries.js';

/** The page the reset link in the e-mail opens: /reset-password?token=… */
export function ResetPasswordPage() {
  useTitle('Choose a new password');
  const token = useLocation().search.get('token') ?? '';
  const form = useSchemaForm(NewPassword, NO_PASSWORD, NEW_PASSWORD_RULES);
  const resetting = useResetPassword(token);
  const failure = errorText(resetting.error);
  const done = resetting.isSuccess;

  if (!token) {
    return (
      <PublicFrame title="Choose a new password">
        <Alert kind="error">This link is incomplete. Open the link from the e-mail again, or ask for a new one.</Alert>
        <p className="public-footer">
          <Link to="/forgot-password">Ask for a new link</Link>
        </p>
      </PublicFrame>
    );
  }

  return (
    <PublicFrame title="Choose a new password">
      {done ? (
        <Alert kind="success">Your password has been changed, and every session of your account has been signed out.</Alert>
      ) : (
        <>
          {failure && <Alert kind="error">{failure}</Alert>}
          <form onSubmit={form.handleSubmit(({ password }) => resetting.mutate(password))} noValidate className="stack">
            <NewPasswordField {...form.field('password')} autoFocus />
            <TextField label="Repeat the new password" type="password" autoComplete="new-password" {...form.field('confirm')} />
            <SubmitButton busy={resetting.isPending} busyLabel="Saving…">
              Set the new password
            </SubmitButton>
          </form>
        </>
      )}
      <p className="public-footer">
        <Link to="/sign-in">{done ? 'Sign in' : 'Back to sign-in'}</Link>
      </p>
    </PublicFrame>
  );
}
