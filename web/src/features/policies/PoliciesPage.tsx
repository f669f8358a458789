import { useState, type FormEvent } from 'react';
import { DeleteDialog } from '../../components/DeleteDialog.js';
import { Alert, Checkbox, EmptyState, Loaded, PageHeader, SelectField, SubmitButton, TextField } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { STALE_AFTER } from '../../api/query.js';
import { errorText } from '../../lib/problems.js';
import { departmentLabel } from '../../lib/labels.js';
import { useAllDepartments, useAllRooms } from '../inventory/queries.js';
import { AreaForm } from './AreaForm.js';
import {
  deleteArea,
  deleteRule,
  describeLimit,
  LIMIT_LABELS,
  useAllTeams,
  useAreas,
  useCreateRule,
  usePreview,
  useRules,
  WEEKDAYS,
  type PolicyArea,
  type PolicyRule,
  type PolicyRuleInput,
} from './queries.js';
import './styles.css';

type Kind = PolicyRule['limit']['kind'];
type ScopeKind = PolicyRule['scope']['kind'];

/** The figure each kind asks for in the form, and its label. */
const FIGURE: Partial<Record<Kind, { member: 'days' | 'minutes' | 'count' | 'hours' | 'percent'; label: string }>> = {
  BOOKING_WINDOW: { member: 'days', label: 'Days ahead' },
  MIN_DURATION: { member: 'minutes', label: 'Minutes' },
  MAX_DURATION: { member: 'minutes', label: 'Minutes' },
  MAX_BOOKINGS: { member: 'count', label: 'Bookings' },
  MAX_HOURS: { member: 'hours', label: 'Hours' },
  MAX_CONCURRENT: { member: 'count', label: 'Bookings' },
  CAPACITY: { member: 'percent', label: 'Percent of the desks' },
  CANCEL_LEAD: { member: 'minutes', label: 'Minutes' },
};

/**
 * Admins: the booking policies (docs/policies.md): the rules with their scope, who and limit, a
 * form to add one, the areas, and "test a booking against the rules" (the preview, which writes nothing).
 */
export function PoliciesPage() {
  useTitle('Booking rules');
  const rules = useRules();
  const areas = useAreas();
  const departments = useAllDepartments();
  const teams = useAllTeams();
  const [editing, setEditing] = useState<string>();
  const [areaSaved, setAreaSaved] = useState<string>();
  const [deleting, setDeleting] = useState<{ kind: 'rule' | 'area'; id: string; name: string } | undefined>();
  const departmentName = (id?: string | null) => {
    const department = departments.data?.find((d) => d.id === id);
    return department ? departmentLabel(department) : 'an office';
  };
  const scopeText = (scope: PolicyRule['scope']) =>
    scope.kind === 'EVERYWHERE'
      ? 'Everywhere'
      : scope.kind === 'DEPARTMENT'
        ? departmentName(scope.departmentId)
        : scope.kind === 'AREA'
          ? `Area ${areas.data?.items.find((a) => a.id === scope.areaId)?.name ?? ''}`
          : scope.kind === 'ROOM'
            ? 'A room'
            : `${scope.deskType} desks`;
  const teamName = (id?: string) => teams.data?.find((team) => team.id === id)?.name ?? 'a team';
  const whoText = (who: PolicyRule['who']) =>
    who.kind === 'EVERYONE' ? 'Everyone' : who.kind === 'ROLE' ? roleLabel(who.role) : `Team ${teamName(who.teamId)}`;
  const weekdayText = (area: PolicyArea) =>
    area.weekdays.length > 0
      ? `On ${WEEKDAYS.filter(([code]) => area.weekdays.includes(code))
          .map(([, word]) => word)
          .join(', ')}`
      : 'Every day';
  const saved = (area: PolicyArea) => {
    setEditing(undefined);
    setAreaSaved(`Area ${area.name} saved.`);
  };

  return (
    <div className="page policies">
      <PageHeader title="Booking rules" />
      <section className="panel" aria-labelledby="rules-heading">
        <h2 id="rules-heading">Rules</h2>
        <Loaded query={rules} label="Loading the rules…">
          {({ items }) =>
            items.length === 0 ? (
              <EmptyState>No rules: anyone may book any bookable desk within the global limits.</EmptyState>
            ) : (
              <ul className="rule-list">
                {items.map((rule) => (
                  <li key={rule.id}>
                    <span className="rule-kind">{LIMIT_LABELS[rule.limit.kind]}</span>
                    <span>{describeLimit(rule.limit)}</span>
                    <span className="rule-where">
                      {scopeText(rule.scope)} · {whoText(rule.who)}
                      {rule.appliesToAdmins ? ' · admins too' : ''}
                      {rule.name ? ` · ${rule.name}` : ''}
                    </span>
                    <button
                      type="button"
                      className="small"
                      onClick={() => setDeleting({ kind: 'rule', id: rule.id, name: LIMIT_LABELS[rule.limit.kind] ?? rule.limit.kind })}
                    >
                      Remove<span className="visually-hidden"> rule {LIMIT_LABELS[rule.limit.kind]}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )
          }
        </Loaded>
      </section>
      <NewRuleForm
        departments={(departments.data ?? []).map((d) => ({ id: d.id, label: departmentLabel(d) }))}
        areas={areas.data?.items ?? []}
        teams={teams.data ?? []}
      />
      <section className="panel" aria-labelledby="areas-heading">
        <h2 id="areas-heading">Areas</h2>
        <Loaded query={areas} label="Loading the areas…">
          {({ items }) =>
            items.length === 0 ? (
              <EmptyState>No areas are reserved for teams.</EmptyState>
            ) : (
              <ul className="rule-list">
                {items.map((area) =>
                  editing === area.id ? (
                    <li key={area.id} className="area-editing">
                      <AreaForm area={area} onDone={saved} />
                    </li>
                  ) : (
                    <li key={area.id}>
                      <span className="rule-kind">{area.name}</span>
                      <span>
                        {area.kind === 'DEPARTMENT' ? departmentName(area.departmentId) : area.kind === 'ROOM' ? 'A room' : `${area.deskIds.length} desks`}
                      </span>
                      <span className="rule-where">
                        {weekdayText(area)} · {area.teamIds.map((id) => teamName(id)).join(', ')}
                        {area.exclusive ? ' · others may not book' : ' · others may book too'}
                      </span>
                      <button
                        type="button"
                        className="small"
                        onClick={() => {
                          setAreaSaved(undefined);
                          setEditing(area.id);
                        }}
                      >
                        Change<span className="visually-hidden"> area {area.name}</span>
                      </button>
                      <button type="button" className="small" onClick={() => setDeleting({ kind: 'area', id: area.id, name: area.name })}>
                        Remove<span className="visually-hidden"> area {area.name}</span>
                      </button>
                    </li>
                  ),
                )}
              </ul>
            )
          }
        </Loaded>
        {areaSaved && <Alert kind="success">{areaSaved}</Alert>}
        <h3>Add an area</h3>
        <AreaForm key={areaSaved ?? 'new'} onDone={saved} />
      </section>
      <PreviewForm />
      {deleting && (
        <DeleteDialog
          title={deleting.kind === 'rule' ? 'Remove rule' : 'Remove area'}
          question={`Remove ${deleting.name}?`}
          subject={deleting.kind === 'rule' ? 'This rule' : 'This area'}
          remove={() => (deleting.kind === 'rule' ? deleteRule(deleting.id) : deleteArea(deleting.id))}
          invalidates={STALE_AFTER.policies}
          onDeleted={() => setDeleting(undefined)}
          onClose={() => setDeleting(undefined)}
        />
      )}
    </div>
  );
}

const roleLabel = (role?: string) => (role === 'TEAM_MANAGER' ? 'Team managers' : role === 'ADMIN' ? 'Admins' : 'Users');

function NewRuleForm({
  departments,
  areas,
  teams,
}: {
  departments: { id: string; label: string }[];
  areas: PolicyArea[];
  teams: { id: string; name: string }[];
}) {
  const [kind, setKind] = useState<Kind>('MAX_BOOKINGS');
  const [figure, setFigure] = useState('2');
  const [per, setPer] = useState<'DAY' | 'WEEK' | 'MONTH'>('WEEK');
  const [unit, setUnit] = useState<'DAY' | 'HOUR'>('DAY');
  const [days, setDays] = useState<string[]>(['MO', 'TU', 'WE', 'TH', 'FR']);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [scope, setScope] = useState<ScopeKind>('EVERYWHERE');
  const [departmentId, setDepartmentId] = useState('');
  const [roomId, setRoomId] = useState('');
  const [areaId, setAreaId] = useState('');
  const [deskType, setDeskType] = useState<'FLEX' | 'FIXED'>('FLEX');
  const [who, setWho] = useState<'EVERYONE' | 'TEAM' | 'USER' | 'ADMIN' | 'TEAM_MANAGER'>('EVERYONE');
  const [teamId, setTeamId] = useState('');
  const [appliesToAdmins, setAppliesToAdmins] = useState(false);
  const [name, setName] = useState('');
  const [saved, setSaved] = useState(false);
  const rooms = useAllRooms(scope === 'ROOM' && departmentId ? departmentId : undefined);
  const create = useCreateRule(() => setSaved(true));
  const need = FIGURE[kind];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const limit: Record<string, unknown> = { kind };
    if (need) limit[need.member] = Number(figure);
    if (kind === 'MAX_BOOKINGS' || kind === 'MAX_HOURS') limit.per = per;
    if (kind === 'GRANULARITY') limit.unit = unit;
    if (kind === 'WEEKDAYS_HOURS') {
      limit.weekdays = WEEKDAYS.map(([code]) => code).filter((code) => days.includes(code));
      if (from) limit.from = from;
      if (to) limit.to = to;
    }
    const where =
      scope === 'DEPARTMENT'
        ? { kind: scope, departmentId }
        : scope === 'ROOM'
          ? { kind: scope, roomId }
          : scope === 'AREA'
            ? { kind: scope, areaId }
            : scope === 'DESK_TYPE'
              ? { kind: scope, deskType }
              : { kind: scope };
    const whom = who === 'EVERYONE' ? { kind: who } : who === 'TEAM' ? { kind: who, teamId } : { kind: 'ROLE', role: who };
    create.mutate({ body: { name, scope: where, who: whom, limit, appliesToAdmins } as PolicyRuleInput });
  };

  return (
    <section className="panel" aria-labelledby="new-rule-heading">
      <h2 id="new-rule-heading">Add a rule</h2>
      <form onSubmit={submit} className="policy-form">
        <SelectField label="Limit" value={kind} onChange={(event) => setKind(event.target.value as Kind)}>
          {Object.entries(LIMIT_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        {need && <TextField label={need.label} type="number" min={0} required value={figure} onChange={(event) => setFigure(event.target.value)} />}
        {(kind === 'MAX_BOOKINGS' || kind === 'MAX_HOURS') && (
          <SelectField label="Per" value={per} onChange={(event) => setPer(event.target.value as typeof per)}>
            <option value="DAY">Day</option>
            <option value="WEEK">Week</option>
            <option value="MONTH">Month</option>
          </SelectField>
        )}
        {kind === 'GRANULARITY' && (
          <SelectField label="Booked in" value={unit} onChange={(event) => setUnit(event.target.value as typeof unit)}>
            <option value="DAY">Whole days</option>
            <option value="HOUR">Whole hours</option>
          </SelectField>
        )}
        {kind === 'WEEKDAYS_HOURS' && (
          <>
            <fieldset>
              <legend>Allowed on</legend>
              <div className="checkbox-grid">
                {WEEKDAYS.map(([code, word]) => (
                  <Checkbox
                    key={code}
                    label={word}
                    checked={days.includes(code)}
                    onChange={(event) => setDays(event.target.checked ? [...days, code] : days.filter((day) => day !== code))}
                  />
                ))}
              </div>
            </fieldset>
            <TextField label="Earliest start (optional)" type="time" value={from} onChange={(event) => setFrom(event.target.value)} />
            <TextField label="Latest end (optional)" type="time" value={to} onChange={(event) => setTo(event.target.value)} />
          </>
        )}
        <SelectField label="Where" value={scope} onChange={(event) => setScope(event.target.value as ScopeKind)}>
          <option value="EVERYWHERE">Everywhere</option>
          <option value="DEPARTMENT">One office</option>
          <option value="ROOM">One room</option>
          <option value="AREA">One area</option>
          <option value="DESK_TYPE">One kind of desk</option>
        </SelectField>
        {(scope === 'DEPARTMENT' || scope === 'ROOM') && (
          <SelectField
            label="Office"
            required
            value={departmentId}
            onChange={(event) => {
              setDepartmentId(event.target.value);
              setRoomId('');
            }}
          >
            <option value="">Choose an office</option>
            {departments.map((d) => (
              <option key={d.id} value={d.id}>
                {d.label}
              </option>
            ))}
          </SelectField>
        )}
        {scope === 'ROOM' && (
          <SelectField label="Room" required value={roomId} disabled={!departmentId} onChange={(event) => setRoomId(event.target.value)}>
            <option value="">{departmentId ? 'Choose a room' : 'Choose an office first'}</option>
            {(rooms.data ?? []).map((room) => (
              <option key={room.id} value={room.id}>
                {room.name}
              </option>
            ))}
          </SelectField>
        )}
        {scope === 'AREA' && (
          <SelectField label="Area" required value={areaId} onChange={(event) => setAreaId(event.target.value)}>
            <option value="">{areas.length > 0 ? 'Choose an area' : 'No areas yet'}</option>
            {areas.map((area) => (
              <option key={area.id} value={area.id}>
                {area.name}
              </option>
            ))}
          </SelectField>
        )}
        {scope === 'DESK_TYPE' && (
          <SelectField label="Kind of desk" value={deskType} onChange={(event) => setDeskType(event.target.value as typeof deskType)}>
            <option value="FLEX">Flexible desks</option>
            <option value="FIXED">Fixed desks</option>
          </SelectField>
        )}
        <SelectField label="Who" value={who} onChange={(event) => setWho(event.target.value as typeof who)}>
          <option value="EVERYONE">Everyone</option>
          <option value="TEAM">One team</option>
          <option value="USER">Users</option>
          <option value="TEAM_MANAGER">Team managers</option>
          <option value="ADMIN">Admins</option>
        </SelectField>
        {who === 'TEAM' && (
          <SelectField label="Team" required value={teamId} onChange={(event) => setTeamId(event.target.value)}>
            <option value="">{teams.length > 0 ? 'Choose a team' : 'No teams yet'}</option>
            {teams.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </SelectField>
        )}
        <Checkbox label="Binds admins too" checked={appliesToAdmins} onChange={(event) => setAppliesToAdmins(event.target.checked)} />
        <TextField label="Name (optional)" maxLength={100} value={name} onChange={(event) => setName(event.target.value)} />
        <SubmitButton busy={create.isPending}>Add rule</SubmitButton>
      </form>
      {create.error && <Alert kind="error">{errorText(create.error, 'This rule')}</Alert>}
      {saved && !create.error && <Alert kind="success">Rule added.</Alert>}
    </section>
  );
}

/** "Test a booking against the rules": for a person (their id), a desk and a time, what the rules would say. */
function PreviewForm() {
  const [userId, setUserId] = useState('');
  const [deskId, setDeskId] = useState('');
  const [start, setStart] = useState('');
  const [hours, setHours] = useState('8');
  const preview = usePreview();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const startTime = new Date(start);
    if (Number.isNaN(startTime.getTime())) return;
    const endTime = new Date(startTime.getTime() + Number(hours) * 3_600_000);
    preview.mutate({ body: { userId: userId.trim(), deskId: deskId.trim(), startTime: startTime.toISOString(), endTime: endTime.toISOString() } });
  };
  const result = preview.data;
  return (
    <section className="panel" aria-labelledby="preview-heading">
      <h2 id="preview-heading">Test a booking against the rules</h2>
      <form onSubmit={submit} className="policy-form">
        <TextField label="Person (user id)" required value={userId} onChange={(event) => setUserId(event.target.value)} />
        <TextField label="Desk (desk id)" required value={deskId} onChange={(event) => setDeskId(event.target.value)} />
        <TextField label="Start" type="datetime-local" required value={start} onChange={(event) => setStart(event.target.value)} />
        <TextField label="Hours" type="number" min={1} max={24 * 62} required value={hours} onChange={(event) => setHours(event.target.value)} />
        <SubmitButton busy={preview.isPending}>Test</SubmitButton>
      </form>
      {preview.error && <Alert kind="error">{errorText(preview.error)}</Alert>}
      {result && (
        <div role="status" className="preview-result">
          {result.allowed ? <Alert kind="success">The rules allow this booking.</Alert> : <Alert kind="warning">Refused: {result.refusal?.message}</Alert>}
          <p>Rules in force: {result.rules.length === 0 ? 'none' : result.rules.map((rule) => LIMIT_LABELS[rule.kind as Kind] ?? rule.kind).join(', ')}</p>
        </div>
      )}
    </section>
  );
}
