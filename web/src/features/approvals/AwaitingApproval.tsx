import { useTranslation } from 'react-i18next';
import { translate } from '../../lib/translate.js';

/** The mark of a reservation awaiting approval (docs/policies.md#approvals). */
export function AwaitingApproval() {
  const { t } = useTranslation('approvals');
  return <span className="badge badge-warning">{t('awaiting.badge')}</span>;
}

/**
 * Said after a booking that awaits approval, with its leading space, in the language in use (the
 * `approvals` namespace is loaded by the navigation's ApprovalsLink on every signed-in page).
 */
export const awaitingSentence = (): string => ` ${translate('approvals:awaiting.sentence')}`;

/**
 * The English sentence, for the pages that still glue it into their own English text.
 * @deprecated Use awaitingSentence(), which follows the language in use.
 */
export const AWAITING_SENTENCE = ' It awaits approval: you will be mailed the decision, and it is cancelled if not approved before it starts.';
