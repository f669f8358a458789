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
  useTitle('Choose your password');
  const { signOut } = useAuth();
  return (
    <PublicFrame title="Choose your password">
      <p>Your account was set up with a password chosen for you. Choose your own to continue.</p>
      <PasswordChangeForm submitLabel="Save my password" onChanged={() => setPasswordChangeRequired(false)} narrow />
      <p className="public-footer">
        <button type="button" className="button-link" onClick={() => void signOut()}>
          Sign out
        </button>
      </p>
    </PublicFrame>
  );
}
