import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation('auth');
  useTitle(t('reset.title'));
  const token = useLocation().search.get('token') ?? '';
  const form = useSchemaForm(NewPassword, NO_PASSWORD, NEW_PASSWORD_RULES);
  const resetting = useResetPassword(token);
  const failure = errorText(resetting.error);
  const done = resetting.isSuccess;

  if (!token) {
    return (
      <PublicFrame title={t('reset.title')}>
        <Alert kind="error">{t('reset.incomplete')}</Alert>
        <p className="public-footer">
          <Link to="/forgot-password">{t('reset.askAgain')}</Link>
        </p>
      </PublicFrame>
    );
  }

  return (
    <PublicFrame title={t('reset.title')}>
      {done ? (
        <Alert kind="success">{t('reset.done')}</Alert>
      ) : (
        <>
          {failure && <Alert kind="error">{failure}</Alert>}
          <form onSubmit={form.handleSubmit(({ password }) => resetting.mutate(password))} noValidate className="stack">
            <NewPasswordField {...form.field('password')} autoFocus />
            <TextField label={t('password.repeat')} type="password" autoComplete="new-password" {...form.field('confirm')} />
            <SubmitButton busy={resetting.isPending} busyLabel={t('common:saving')}>
              {t('reset.submit')}
            </SubmitButton>
          </form>
        </>
      )}
      <p className="public-footer">
        <Link to="/sign-in">{done ? t('reset.signIn') : t('forgot.back')}</Link>
      </p>
    </PublicFrame>
  );
}
