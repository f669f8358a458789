import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation('approvals');
  useTitle(t('title'));
  const { isAdmin } = useUser();
  const [page, setPage] = useState(0);
  const [notice, setNotice] = useState<{ kind: 'success' | 'error'; text: string }>();
  const [deciding, setDeciding] = useState<{ approval: Approval; action: 'approve' | 'reject' }>();
  const inbox = useApprovalInbox(page);

  return (
    <div className="page">
      <PageHeader title={t('title')} />
      {notice && (
        <Alert kind={notice.kind} onDismiss={() => setNotice(undefined)}>
          {notice.text}
        </Alert>
      )}
      <section aria-labelledby="inbox-heading">
        <h2 id="inbox-heading">{t('inbox.heading')}</h2>
        <Loaded query={inbox} label={t('inbox.loading')}>
          {(list) =>
            list.totalElements === 0 ? (
              <EmptyState>{t('inbox.empty')}</EmptyState>
            ) : (
              <>
                <p className="muted">{t('inbox.waiting', { count: list.totalElements })}</p>
                <ul className="approval-list">
                  {list.content.map((approval) => {
                    const when = formatRangeIn(approval.startTime, approval.endTime, approval.timeZone);
                    return (
                      <li key={approval.reservationId} className="approval">
                        <div>
                          <p>
                            <strong>{approval.userName}</strong> · {t('inbox.place', { desk: approval.deskName ?? '?', room: approval.roomName ?? '?' })}
                          </p>
                          <p>{when}</p>
                          {approval.office && <p className="muted">{departmentLabel(approval.office)}</p>}
                        </div>
                        <div className="approval-actions">
                          <button
                            type="button"
                            className="button-primary button-small"
                            onClick={() => setDeciding({ approval, action: 'approve' })}
                            aria-label={t('inbox.approveLabel', { name: approval.userName, when })}
                          >
                            {t('approve')}
                          </button>
                          <button
                            type="button"
                            className="button-danger button-small"
                            onClick={() => setDeciding({ approval, action: 'reject' })}
                            aria-label={t('inbox.rejectLabel', { name: approval.userName, when })}
                          >
                            {t('reject')}
                          </button>
                        </div>
                      </li>
                    );
                  })}
                </ul>
                <Pager page={list.number} totalPages={list.totalPages} onPage={setPage} label={t('inbox.pages')} />
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
  const { t } = useTranslation('approvals');
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
          onDone(action === 'approve' ? t('decision.approved', { name: approval.userName }) : t('decision.rejected', { name: approval.userName })),
        onError: (failure) => setError(problemMessage(problemOf(failure), t('decision.subject'))),
      },
    );
  };
  return (
    <Dialog title={action === 'approve' ? t('decision.approveTitle') : t('decision.rejectTitle')} onClose={onClose}>
      <form onSubmit={submit}>
        <p>
          {t('decision.summary', {
            name: approval.userName,
            desk: approval.deskName ?? '?',
            room: approval.roomName ?? '?',
            when: formatRangeIn(approval.startTime, approval.endTime, approval.timeZone),
          })}
        </p>
        <TextArea
          label={t('decision.note')}
          value={note}
          maxLength={NOTE_MAX}
          rows={3}
          onChange={(event) => setNote(event.target.value)}
          hint={action === 'reject' ? t('decision.rejectHint') : undefined}
        />
        {error && <Alert kind="error">{error}</Alert>}
        <div className="dialog-actions">
          <button type="button" className="button-secondary" onClick={onClose} disabled={mutation.isPending}>
            {t('decision.back')}
          </button>
          <button type="submit" className={action === 'approve' ? 'button-primary' : 'button-danger'} disabled={mutation.isPending}>
            {mutation.isPending ? t('common:saving') : action === 'approve' ? t('approve') : t('reject')}
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

/** The scopes in the order the form offers them. */
const SCOPES: Scope[] = ['ROOM', 'AREA', 'DEPARTMENT', 'DESK_TYPE'];

/** The admins' list and form of approval requirements. Teams are named by id until the teams' pages exist. */
function Requirements({ onNotice }: { onNotice: (text: string) => void }) {
  const { t } = useTranslation('approvals');
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
    onNotice(t('requirements.added'));
  });
  const set = (patch: Partial<Form>) => setForm((current) => ({ ...current, ...patch }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    if (form.scope === 'AREA' && !form.areaId) return setProblem(t('requirements.chooseArea'));
    if (form.scope !== 'DESK_TYPE' && form.scope !== 'AREA' && !form.departmentId) return setProblem(t('requirements.chooseOffice'));
    if (form.scope === 'ROOM' && !form.roomId) return setProblem(t('requirements.chooseRoom'));
    if (form.appliesTo !== 'EVERYONE' && !form.teamId.trim()) return setProblem(t('requirements.giveTeam'));
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
    create.mutate({ body }, { onError: (failure) => setProblem(problemMessage(problemOf(failure), t('requirements.subjectThe'))) });
  };

  /** One sentence per kind of scope, naming whom it applies to: "A room, for everyone". */
  const describe = (requirement: Requirement) => {
    const who = requirement.appliesTo;
    if (requirement.scope === 'DESK_TYPE') return t('requirements.describe.DESK_TYPE', { type: requirement.deskType === 'FIXED' ? 'FIXED' : 'FLEX', who });
    if (requirement.scope === 'ROOM') return t('requirements.describe.ROOM', { who });
    if (requirement.scope === 'AREA') {
      const name = areas.data?.items.find((area) => area.id === requirement.areaId)?.name;
      return name ? t('requirements.describe.AREA', { name, who }) : t('requirements.describe.AREA_UNKNOWN', { who });
    }
    const department = departments.data?.find((candidate) => candidate.id === requirement.departmentId);
    return department
      ? t('requirements.describe.DEPARTMENT', { office: departmentLabel(department), who })
      : t('requirements.describe.DEPARTMENT_UNKNOWN', { who });
  };

  return (
    <section aria-labelledby="requirements-heading">
      <h2 id="requirements-heading">{t('requirements.heading')}</h2>
      <Loaded query={requirements} label={t('requirements.loading')}>
        {(list) =>
          list.totalElements === 0 ? (
            <EmptyState>{t('requirements.empty')}</EmptyState>
          ) : (
            <>
              <ul className="approval-list">
                {list.content.map((requirement) => (
                  <li key={requirement.id} className="approval">
                    <div>
                      <p>
                        <strong>{describe(requirement)}</strong>
                      </p>
                      <p className="muted">{requirement.approverTeamId ? t('requirements.byAdminsAndManagers') : t('requirements.byAdmins')}</p>
                    </div>
                    <div className="approval-actions">
                      <button
                        type="button"
                        className="button-secondary button-small"
                        onClick={() => setRemoving(requirement)}
                        aria-label={t('requirements.removeLabel', { what: describe(requirement) })}
                      >
                        {t('common:remove')}
                      </button>
                    </div>
                  </li>
                ))}
              </ul>
              <Pager page={list.number} totalPages={list.totalPages} onPage={setPage} label={t('requirements.pages')} />
            </>
          )
        }
      </Loaded>
      <form className="panel" onSubmit={submit} noValidate aria-labelledby="new-requirement-heading">
        <h3 id="new-requirement-heading">{t('requirements.new')}</h3>
        <div className="field-row">
          <SelectField label={t('common:fields.where')} value={form.scope} onChange={(event) => set({ scope: event.target.value as Scope })}>
            {SCOPES.map((scope) => (
              <option key={scope} value={scope}>
                {t(`requirements.scope.${scope}`)}
              </option>
            ))}
          </SelectField>
          {form.scope === 'AREA' ? (
            <SelectField label={t('common:fields.area')} value={form.areaId} onChange={(event) => set({ areaId: event.target.value })}>
              <option value="">{t('requirements.choose')}</option>
              {(areas.data?.items ?? []).map((area) => (
                <option key={area.id} value={area.id}>
                  {area.name}
                </option>
              ))}
            </SelectField>
          ) : form.scope === 'DESK_TYPE' ? (
            <SelectField
              label={t('requirements.deskType')}
              value={form.deskType}
              onChange={(event) => set({ deskType: event.target.value as Form['deskType'] })}
            >
              <option value="FLEX">{t('requirements.flexDesks')}</option>
              <option value="FIXED">{t('requirements.fixedDesks')}</option>
            </SelectField>
          ) : (
            <SelectField
              label={t('common:fields.office')}
              value={form.departmentId}
              onChange={(event) => set({ departmentId: event.target.value, roomId: '' })}
            >
              <option value="">{t('requirements.choose')}</option>
              {(departments.data ?? []).map((department) => (
                <option key={department.id} value={department.id}>
                  {departmentLabel(department)}
                </option>
              ))}
            </SelectField>
          )}
          {form.scope === 'ROOM' && (
            <SelectField
              label={t('common:fields.room')}
              value={form.roomId}
              onChange={(event) => set({ roomId: event.target.value })}
              disabled={!form.departmentId}
            >
              <option value="">{t('requirements.choose')}</option>
              {(rooms.data ?? []).map((room) => (
                <option key={room.id} value={room.id}>
                  {room.name}
                </option>
              ))}
            </SelectField>
          )}
        </div>
        <div className="field-row">
          <SelectField label={t('requirements.for')} value={form.appliesTo} onChange={(event) => set({ appliesTo: event.target.value as Form['appliesTo'] })}>
            <option value="EVERYONE">{t('requirements.appliesTo.EVERYONE')}</option>
            <option value="MEMBERS">{t('requirements.appliesTo.MEMBERS')}</option>
            <option value="NON_MEMBERS">{t('requirements.appliesTo.NON_MEMBERS')}</option>
          </SelectField>
          {form.appliesTo !== 'EVERYONE' && (
            <TextField label={t('requirements.teamId')} value={form.teamId} onChange={(event) => set({ teamId: event.target.value })} />
          )}
          <TextField
            label={t('requirements.approverTeamId')}
            hint={t('requirements.approverHint')}
            value={form.approverTeamId}
            onChange={(event) => set({ approverTeamId: event.target.value })}
          />
        </div>
        {problem && <Alert kind="error">{problem}</Alert>}
        <div className="form-actions">
          <button type="submit" className="button-primary" disabled={create.isPending}>
            {create.isPending ? t('common:adding') : t('requirements.add')}
          </button>
        </div>
      </form>
      {removing && (
        <DeleteDialog
          title={t('requirements.removeTitle')}
          question={t('requirements.removeQuestion', { what: describe(removing) })}
          subject={t('requirements.subject')}
          remove={() => deleteRequirement(removing.id)}
          invalidates={STALE_AFTER.approvalRequirements}
          onDeleted={() => {
            setRemoving(undefined);
            onNotice(t('requirements.removed'));
          }}
          onClose={() => setRemoving(undefined)}
        />
      )}
    </section>
  );
}
