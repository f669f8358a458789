import { useState, type FormEvent } from 'react';
import { STALE_AFTER } from '../../api/query.js';
import { DeleteDialog } from '../../components/DeleteDialog.js';
import { Alert, Dialog, EmptyState, Loaded, PageHeader, Pager, SelectField, TextArea, TextField } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { departmentLabel } from '../../lib/labels.js';
import { problemMessage, problemOf } from '../../lib/problems.js';
import { formatRangeIn } from '../../lib/time.js';
import { useUser } from '../auth/AuthProvider.js';
import { useAllDepartments, useAllRooms } from '../inventory/queries.js';
import { useAreas } from '../policies/queries.js';
import {
  deleteRequirement,
  useApprovalInbox,
  useApprove,
  useCreateRequirement,
  useReject,
  useRequirements,
  type Approval,
  type Requirement,
  type RequirementInput,
} from './queries.js';
import './styles.css';

const NOTE_MAX = 500;

/** The approver's inbox (docs/policies.md#approvals) and, for admins, the approval requirements. */
export function ApprovalsPage() {
  useTitle('Approvals');
  const { isAdmin } = useUser();
  const [page, setPage] = useState(0);
  const [notice, setNotice] = useState<{ kind: 'success' | 'error'; text: string }>();
  const [deciding, setDeciding] = useState<{ approval: Approval; action: 'approve' | 'reject' }>();
  const inbox = useApprovalInbox(page);

  return (
    <div className="page">
      <PageHeader title="Approvals" />
      {notice && (
        <Alert kind={notice.kind} onDismiss={() => setNotice(undefined)}>
          {notice.text}
        </Alert>
      )}
      <section aria-labelledby="inbox-heading">
        <h2 id="inbox-heading">Awaiting your decision</h2>
        <Loaded query={inbox} label="Loading requests…">
          {(list) =>
            list.totalElements === 0 ? (
              <EmptyState>No booking awaits your approval.</EmptyState>
            ) : (
              <>
                <p className="muted">
                  {list.totalElements} {list.totalElements === 1 ? 'booking awaits' : 'bookings await'} a decision. A request not approved before its start
                  expires and its booking is cancelled.
                </p>
                <ul className="approval-list">
                  {list.content.map((approval) => {
                    const when = formatRangeIn(approval.startTime, approval.endTime, approval.timeZone);
                    return (
                      <li key={approval.reservationId} className="approval">
                        <div>
                          <p>
                            <strong>{approval.userName}</strong> · desk {approval.deskName ?? '?'} in {approval.roomName ?? '?'}
                          </p>
                          <p>{when}</p>
                          {approval.place && <p className="muted">{approval.place}</p>}
                        </div>
                        <div className="approval-actions">
                          <button
                            type="button"
                            className="button-primary button-small"
                            onClick={() => setDeciding({ approval, action: 'approve' })}
                            aria-label={`Approve ${approval.userName}'s booking, ${when}`}
                          >
                            Approve
                          </button>
                          <button
                            type="button"
                            className="button-danger button-small"
                            onClick={() => setDeciding({ approval, action: 'reject' })}
                            aria-label={`Reject ${approval.userName}'s booking, ${when}`}
                          >
                            Reject
                          </button>
                        </div>
                      </li>
                    );
                  })}
                </ul>
                <Pager page={list.number} totalPages={list.totalPages} onPage={setPage} label="Pages of requests" />
              </>
            )
          }
        </Loaded>
      </section>
      {deciding && (
        <DecisionDialog
          {...deciding}
          onClose={() => setDeciding(undefined)}
          onDone={(text) => {
            setDeciding(undefined);
            setNotice({ kind: 'success', text });
          }}
        />
      )}
      {isAdmin && <Requirements onNotice={(text) => setNotice({ kind: 'success', text })} />}
    </div>
  );
}

function DecisionDialog({
  approval,
  action,
  onClose,
  onDone,
}: {
  approval: Approval;
  action: 'approve' | 'reject';
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const [note, setNote] = useState('');
  const [error, setError] = useState<string>();
  const approve = useApprove();
  const reject = useReject();
  const mutation = action === 'approve' ? approve : reject;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate(
      { params: { path: { id: approval.reservationId } }, body: note.trim() ? { note: note.trim() } : {} },
      {
        onSuccess: () =>
          onDone(
            action === 'approve'
              ? `Approved: ${approval.userName}'s booking. They are told by mail.`
              : `Rejected: ${approval.userName}'s booking was cancelled.`,
          ),
        onError: (failure) => setError(problemMessage(problemOf(failure), 'This request')),
      },
    );
  };
  return (
    <Dialog title={action === 'approve' ? 'Approve the booking' : 'Reject the booking'} onClose={onClose}>
      <form onSubmit={submit}>
        <p>
          {approval.userName}, desk {approval.deskName ?? '?'} in {approval.roomName ?? '?'},{' '}
          {formatRangeIn(approval.startTime, approval.endTime, approval.timeZone)}
        </p>
        <TextArea
          label="Note to them (optional)"
          value={note}
          maxLength={NOTE_MAX}
          rows={3}
          onChange={(event) => setNote(event.target.value)}
          hint={action === 'reject' ? 'Rejecting cancels the booking.' : undefined}
        />
        {error && <Alert kind="error">{error}</Alert>}
        <div className="dialog-actions">
          <button type="button" className="button-secondary" onClick={onClose} disabled={mutation.isPending}>
            Back
          </button>
          <button type="submit" className={action === 'approve' ? 'button-primary' : 'button-danger'} disabled={mutation.isPending}>
            {mutation.isPending ? 'Saving…' : action === 'approve' ? 'Approve' : 'Reject'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

type Scope = RequirementInput['scope'];

interface Form {
  scope: Scope;
  departmentId: string;
  roomId: string;
  areaId: string;
  deskType: 'FLEX' | 'FIXED';
  appliesTo: NonNullable<RequirementInput['appliesTo']>;
  teamId: string;
  approverTeamId: string;
}

const EMPTY: Form = { scope: 'ROOM', departmentId: '', roomId: '', areaId: '', deskType: 'FLEX', appliesTo: 'EVERYONE', teamId: '', approverTeamId: '' };

const SCOPE_WORDS: Record<Scope, string> = { ROOM: 'A room', AREA: 'An area', DEPARTMENT: 'An office', DESK_TYPE: 'A desk type' };
const APPLIES_WORDS: Record<Form['appliesTo'], string> = { EVERYONE: 'everyone', MEMBERS: "the team's people", NON_MEMBERS: 'people outside the team' };

/** The admins' list and form of approval requirements. Teams are named by id until the teams' pages exist. */
function Requirements({ onNotice }: { onNotice: (text: string) => void }) {
  const [page, setPage] = useState(0);
  const [form, setForm] = useState<Form>(EMPTY);
  const [problem, setProblem] = useState<string>();
  const [removing, setRemoving] = useState<Requirement>();
  const requirements = useRequirements(page);
  const departments = useAllDepartments();
  const rooms = useAllRooms(form.departmentId || undefined);
  const areas = useAreas();
  const create = useCreateRequirement(() => {
    setForm(EMPTY);
    onNotice('Requirement added: new bookings in its scope now await approval.');
  });
  const set = (patch: Partial<Form>) => setForm((current) => ({ ...current, ...patch }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    if (form.scope === 'AREA' && !form.areaId) return setProblem('Choose the area.');
    if (form.scope !== 'DESK_TYPE' && form.scope !== 'AREA' && !form.departmentId) return setProblem('Choose the office.');
    if (form.scope === 'ROOM' && !form.roomId) return setProblem('Choose the room.');
    if (form.appliesTo !== 'EVERYONE' && !form.teamId.trim()) return setProblem('Give the team.');
    const body: RequirementInput = {
      scope: form.scope,
      ...(form.scope === 'DEPARTMENT' ? { departmentId: form.departmentId } : {}),
      ...(form.scope === 'ROOM' ? { roomId: form.roomId } : {}),
      ...(form.scope === 'AREA' ? { areaId: form.areaId } : {}),
      ...(form.scope === 'DESK_TYPE' ? { deskType: form.deskType } : {}),
      appliesTo: form.appliesTo,
      ...(form.appliesTo !== 'EVERYONE' ? { teamId: form.teamId.trim() } : {}),
      ...(form.approverTeamId.trim() ? { approverTeamId: form.approverTeamId.trim() } : {}),
    };
    create.mutate({ body }, { onError: (failure) => setProblem(problemMessage(problemOf(failure), 'The requirement')) });
  };

  const describe = (requirement: Requirement) => {
    const where =
      requirement.scope === 'DESK_TYPE'
        ? `Every ${requirement.deskType === 'FIXED' ? 'fixed' : 'flexible'} desk`
        : requirement.scope === 'ROOM'
          ? 'A room'
          : requirement.scope === 'AREA'
            ? `Area ${areas.data?.items.find((area) => area.id === requirement.areaId)?.name ?? ''}`.trim()
            : (() => {
                const department = departments.data?.find((candidate) => candidate.id === requirement.departmentId);
                return department ? `Office ${departmentLabel(department)}` : 'An office';
              })();
    return `${where}, for ${APPLIES_WORDS[requirement.appliesTo]}`;
  };

  return (
    <section aria-labelledby="requirements-heading">
      <h2 id="requirements-heading">Approval requirements</h2>
      <Loaded query={requirements} label="Loading requirements…">
        {(list) =>
          list.totalElements === 0 ? (
            <EmptyState>No booking needs approval.</EmptyState>
          ) : (
            <>
              <ul className="approval-list">
                {list.content.map((requirement) => (
                  <li key={requirement.id} className="approval">
                    <div>
                      <p>
                        <strong>{describe(requirement)}</strong>
                      </p>
                      <p className="muted">{requirement.approverTeamId ? 'Approved by admins and the team’s managers' : 'Approved by admins'}</p>
                    </div>
                    <div className="approval-actions">
                      <button
                        type="button"
                        className="button-secondary button-small"
                        onClick={() => setRemoving(requirement)}
                        aria-label={`Remove: ${describe(requirement)}`}
                      >
                        Remove
                      </button>
                    </div>
                  </li>
                ))}
              </ul>
              <Pager page={list.number} totalPages={list.totalPages} onPage={setPage} label="Pages of requirements" />
            </>
          )
        }
      </Loaded>
      <form className="panel" onSubmit={submit} noValidate aria-labelledby="new-requirement-heading">
        <h3 id="new-requirement-heading">Require approval</h3>
        <div className="field-row">
          <SelectField label="Where" value={form.scope} onChange={(event) => set({ scope: event.target.value as Scope })}>
            {(Object.keys(SCOPE_WORDS) as Scope[]).map((scope) => (
              <option key={scope} value={scope}>
                {SCOPE_WORDS[scope]}
              </option>
            ))}
          </SelectField>
          {form.scope === 'AREA' ? (
            <SelectField label="Area" value={form.areaId} onChange={(event) => set({ areaId: event.target.value })}>
              <option value="">Choose…</option>
              {(areas.data?.items ?? []).map((area) => (
                <option key={area.id} value={area.id}>
                  {area.name}
                </option>
              ))}
            </SelectField>
          ) : form.scope === 'DESK_TYPE' ? (
            <SelectField label="Desk type" value={form.deskType} onChange={(event) => set({ deskType: event.target.value as Form['deskType'] })}>
              <option value="FLEX">Flexible desks</option>
              <option value="FIXED">Fixed desks</option>
            </SelectField>
          ) : (
            <SelectField label="Office" value={form.departmentId} onChange={(event) => set({ departmentId: event.target.value, roomId: '' })}>
              <option value="">Choose…</option>
              {(departments.data ?? []).map((department) => (
                <option key={department.id} value={department.id}>
                  {departmentLabel(department)}
                </option>
              ))}
            </SelectField>
          )}
          {form.scope === 'ROOM' && (
            <SelectField label="Room" value={form.roomId} onChange={(event) => set({ roomId: event.target.value })} disabled={!form.departmentId}>
              <option value="">Choose…</option>
              {(rooms.data ?? []).map((room) => (
                <option key={room.id} value={room.id}>
                  {room.name}
                </option>
              ))}
            </SelectField>
          )}
        </div>
        <div className="field-row">
          <SelectField label="For" value={form.appliesTo} onChange={(event) => set({ appliesTo: event.target.value as Form['appliesTo'] })}>
            <option value="EVERYONE">Everyone</option>
            <option value="MEMBERS">The people of a team</option>
            <option value="NON_MEMBERS">People outside a team</option>
          </SelectField>
          {form.appliesTo !== 'EVERYONE' && <TextField label="Team (id)" value={form.teamId} onChange={(event) => set({ teamId: event.target.value })} />}
          <TextField
            label="Approving team (id, optional)"
            hint="Its managers approve, besides the admins."
            value={form.approverTeamId}
            onChange={(event) => set({ approverTeamId: event.target.value })}
          />
        </div>
        {problem && <Alert kind="error">{problem}</Alert>}
        <div className="form-actions">
          <button type="submit" className="button-primary" disabled={create.isPending}>
            {create.isPending ? 'Adding…' : 'Add requirement'}
          </button>
        </div>
      </form>
      {removing && (
        <DeleteDialog
          title="Remove the requirement"
          question={`Remove “${describe(removing)}”? New bookings no longer need approval; pending requests stay, for admins to decide.`}
          subject="This requirement"
          remove={() => deleteRequirement(removing.id)}
          invalidates={STALE_AFTER.approvalRequirements}
          onDeleted={() => {
            setRemoving(undefined);
            onNotice('Requirement removed.');
          }}
          onClose={() => setRemoving(undefined)}
        />
      )}
    </section>
  );
}
