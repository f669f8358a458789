import { Link } from '../../router.js';
import { usePendingApprovalCount } from './queries.js';

/**
 * The navigation's link to the approver's inbox with how many requests wait (docs/policies.md#approvals):
 * always for admins, for others only while something awaits their decision.
 */
export function ApprovalsLink({ admin, current }: { admin: boolean; current: boolean }) {
  const count = usePendingApprovalCount();
  const waiting = count.data ?? 0;
  if (!admin && waiting === 0) return null;
  return (
    <li>
      <Link to="/approvals" aria-current={current ? 'page' : undefined}>
        Approvals
        {waiting > 0 && (
          <>
            <span className="badge badge-accent" aria-hidden="true">
              {waiting}
            </span>
            <span className="visually-hidden">, {waiting} waiting</span>
          </>
        )}
      </Link>
    </li>
  );
}
