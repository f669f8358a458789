import { useTranslation } from 'react-i18next';
import { Link } from '../../router.js';
import { usePendingApprovalCount } from './queries.js';

/**
 * The navigation's link to the approver's inbox with how many requests wait (docs/policies.md#approvals):
 * always for admins, for others only while something awaits their decision. The bar is outside the
 * pages' Suspense, so the link waits for its namespace without suspending (it shows once loaded).
 */
export function ApprovalsLink({ admin, current }: { admin: boolean; current: boolean }) {
  const { t, ready } = useTranslation('approvals', { useSuspense: false });
  const count = usePendingApprovalCount();
  const waiting = count.data ?? 0;
  if (!ready || (!admin && waiting === 0)) return null;
  return (
    <li>
      <Link to="/approvals" aria-current={current ? 'page' : undefined}>
        {t('link.name')}
        {waiting > 0 && (
          <>
            <span className="badge badge-accent" aria-hidden="true">
              {waiting}
            </span>
            <span className="visually-hidden">{t('link.waiting', { count: waiting })}</span>
          </>
        )}
      </Link>
    </li>
  );
}
