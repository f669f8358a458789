import { Type } from '@sinclair/typebox';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation('auth');
  useTitle(t('forgot.pageTitle'));
  const form = useSchemaForm(ForgotForm, { email: '' }, { trim: ['email'] });
  const sending = useForgotPassword();
  const failure = errorText(sending.error);
  // Without a mail server no link can be sent: say so instead of promising one (docs/configuration.md#mail).
  const mail = useSettings()?.mailConfigured;

  return (
    <PublicFrame title={t('forgot.title')}>
      {mail === false ? (
        <Alert kind="info">{t('forgot.noMail')}</Alert>
      ) : sending.isSuccess ? (
        <Alert kind="success">{t('forgot.sent')}</Alert>
      ) : (
        <>
          <p>{t('forgot.intro')}</p>
          {failure && <Alert kind="error">{failure}</Alert>}
          <form onSubmit={form.handleSubmit(({ email }) => sending.mutate(email))} noValidate className="stack">
            <TextField label={t('signIn.email')} type="email" autoComplete="email" {...form.field('email')} autoFocus />
            <SubmitButton busy={sending.isPending} busyLabel={t('forgot.busy')}>
              {t('forgot.submit')}
            </SubmitButton>
          </form>
        </>
      )}
      <p className="public-footer">
        <Link to="/sign-in">{t('forgot.back')}</Link>
      </p>
    </PublicFrame>
  );
}
