import { Type, type Static } from '@sinclair/typebox';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PublicFrame } from '../../components/PublicFrame.js';
import { Alert, SubmitButton, TextField } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { EmailInput, PasswordInput } from '../../lib/fields.js';
import { useSchemaForm } from '../../lib/forms.js';
import { errorText } from '../../lib/problems.js';
import { safeNext } from '../../lib/routes.js';
import { Link, navigate, useLocation } from '../../router.js';
import { OidcButton } from '../oidc/OidcButton.js';
import { useAuth } from './AuthProvider.js';

const SignInForm = Type.Object({ email: EmailInput(), password: PasswordInput() });

export function SignInPage({ reason }: { reason?: string }) {
  const { t } = useTranslation('auth');
  useTitle(t('signIn.title'));
  const { signIn } = useAuth();
  const { search } = useLocation();
  const form = useSchemaForm(SignInForm, { email: '', password: '' }, { trim: ['email'] });
  const signingIn = useMutation({
    mutationFn: (values: Static<typeof SignInForm>) => signIn(values.email, values.password),
    onSuccess: () => navigate(safeNext(search.get('next')), { replace: true }),
  });
  const failure = errorText(signingIn.error);

  return (
    <PublicFrame title={t('signIn.title')}>
      {reason && !failure && <Alert kind="info">{reason}</Alert>}
      {failure && <Alert kind="error">{failure}</Alert>}
      <form onSubmit={form.handleSubmit((values) => signingIn.mutate(values))} noValidate className="stack">
        <TextField label={t('signIn.email')} type="email" autoComplete="username" {...form.field('email')} autoFocus />
        <TextField label={t('signIn.password')} type="password" autoComplete="current-password" {...form.field('password')} />
        <SubmitButton busy={signingIn.isPending} busyLabel={t('signIn.busy')}>
          {t('signIn.submit')}
        </SubmitButton>
      </form>
      <OidcButton />
      <p className="public-footer">
        <Link to="/forgot-password">{t('signIn.forgot')}</Link>
      </p>
    </PublicFrame>
  );
}
