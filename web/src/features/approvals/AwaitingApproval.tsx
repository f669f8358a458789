import { useTranslation } from 'react-i18next';

/** The mark of a reservation awaiting approval (docs/policies.md#approvals). */
export function AwaitingApproval() {
  const { t } = useTranslation('approvals');
  return <span className="badge badge-warning">{t('awaiting.badge')}</span>;
}
