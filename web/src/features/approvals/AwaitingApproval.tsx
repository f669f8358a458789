/** The mark of a reservation awaiting approval (docs/policies.md#approvals). */
export function AwaitingApproval() {
  return <span className="badge badge-warning">Awaiting approval</span>;
}

/** Said after a booking that awaits approval. */
export const AWAITING_SENTENCE = ' It awaits approval: you will be mailed the decision, and it is cancelled if not approved before it starts.';
