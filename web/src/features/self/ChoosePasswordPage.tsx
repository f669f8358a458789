import { useTranslation } from 'react-i18next';
import { setPasswordChangeRequired } from '../../api/password-change.js';
import { PublicFrame } from '../../components/PublicFrame.js';
import { useTitle } from '../../hooks.js';
import { PasswordChangeForm } from './components/PasswordChangeForm.js';
import { useAuth } from '../auth/AuthProvider.js';

/**
 * Shown instead of any page while the service answers PASSWORD_CHANGE_REQUIRED (api/password-change.ts).
 * The address stays that of the page the person asked for, which shows once the password is chosen.
 */
export function ChoosePasswordPage() {
  const { t } = useTranslation('auth');
  useTitle(t('choose.title'));
  const { signOut } = useAuth();
  return (
    <PublicFrame title={t('choose.title')}>
      <p>{t('choose.intro')}</p>
      <PasswordChangeForm submitLabel={t('choose.submit')} onChanged={() => setPasswordChangeRequired(false)} narrow />
      <p className="public-footer">
        <button type="button" className="button-link" onClick={() => void signOut()}>
          {t('common:signOut')}
        </button>
      </p>
    </PublicFrame>
  );
}
