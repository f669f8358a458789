import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
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
  LIMIT_KINDS,
  limitLabel,
  useAllTeams,
  useAreas,
  useCreateRule,
  usePreview,
  useRules,
  WEEKDAYS,
  weekdayList,
  weekdayOrder,
  weekdayWord,
  type PolicyArea,
  type PolicyRule,
  type PolicyRuleInput,
} from './queries.js';
import './styles.css';

type Kind = PolicyRule['limit']['kind'];
type ScopeKind = PolicyRule['scope']['kind'];

/** The figure each kind asks for in the form, and its label (a key of figure.* in the policies namespace). */
const FIGURE: Partial<
  Record<Kind, { member: 'days' | 'minutes' | 'count' | 'hours' | 'percent'; label: 'daysAhead' | 'minutes' | 'bookings' | 'hours' | 'percent' }>
> = {
  BOOKING_WINDOW: { member: 'days', label: 'daysAhead' },
  MIN_DURATION: { member: 'minutes', label: 'minutes' },
  MAX_DURATION: { member: 'minutes', label: 'minutes' },
  MAX_BOOKINGS: { member: 'count', label: 'bookings' },
  MAX_HOURS: { member: 'hours', label: 'hours' },
  MAX_CONCURRENT: { member: 'count', label: 'bookings' },
  CAPACITY: { member: 'percent', label: 'percent' },
  CANCEL_LEAD: { member: 'minutes', label: 'minutes' },
};

/**
 * Admins: the booking policies (docs/policies.md): the rules with their scope, who and limit, a
 * form to add one, the areas, and "test a booking against the rules" (the preview, which writes nothing).
 */
export function PoliciesPage() {
  const { t } = useTranslation('policies');
  useTitle(t('title'));
  const rules = useRules();
  const areas = useAreas();
  const departments = useAllDepartments();
  const teams = useAllTeams();
  const [editing, setEditing] = useState<string>();
  const [areaSaved, setAreaSaved] = useState<string>();
  const [deleting, setDeleting] = useState<{ kind: 'rule' | 'area'; id: string; name: string } | undefined>();
  const departmentName = (id?: string | null) => {
    const department = departments.data?.find((d) => d.id === id);
    return department ? departmentLabel(department) : t('where.anOffice');
  };
  const scopeText = (scope: PolicyRule['scope']) =>
    scope.kind === 'EVERYWHERE'
      ? t('where.everywhere')
      : scope.kind === 'DEPARTMENT'
        ? departmentName(scope.departmentId)
        : scope.kind === 'AREA'
          ? t('where.area', { name: areas.data?.items.find((a) => a.id === scope.areaId)?.name ?? '' })
          : scope.kind === 'ROOM'
            ? t('where.aRoom')
            : t('where.deskType', { type: scope.deskType ?? 'FLEX' });
  const teamName = (id?: string) => teams.data?.find((team) => team.id === id)?.name ?? t('who.aTeam');
  const whoText = (who: PolicyRule['who']) =>
    who.kind === 'EVERYONE' ? t('who.everyone') : who.kind === 'ROLE' ? t(`who.role.${roleOf(who.role)}`) : t('who.team', { name: teamName(who.teamId) });
  const saved = (area: PolicyArea) => {
    setEditing(undefined);
    setAreaSaved(t('areas.saved', { name: area.name }));
  };

  return (
    <div className="page policies">
      <PageHeader title={t('title')} />
      <section className="panel" aria-labelledby="rules-heading">
        <h2 id="rules-heading">{t('rules.heading')}</h2>
        <Loaded query={rules} label={t('rules.loading')}>
          {({ items }) =>
            items.length === 0 ? (
              <EmptyState>{t('rules.empty')}</EmptyState>
            ) : (
              <ul className="rule-list">
                {items.map((rule) => (
                  <li key={rule.id}>
                    <span className="rule-kind">{limitLabel(rule.limit.kind)}</span>
                    <span>{describeLimit(rule.limit)}</span>
                    <span className="rule-where">
                      {t('rules.where', {
                        where: scopeText(rule.scope),
                        who: whoText(rule.who),
                        admins: rule.appliesToAdmins ? 'yes' : 'no',
                        named: rule.name ? 'yes' : 'no',
                        name: rule.name ?? '',
                      })}
                    </span>
                    <button type="button" className="small" onClick={() => setDeleting({ kind: 'rule', id: rule.id, name: limitLabel(rule.limit.kind) })}>
                      {t('common:remove')}
                      <span className="visually-hidden"> {t('rules.removeHidden', { kind: limitLabel(rule.limit.kind) })}</span>
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
        <h2 id="areas-heading">{t('areas.heading')}</h2>
        <Loaded query={areas} label={t('areas.loading')}>
          {({ items }) =>
            items.length === 0 ? (
              <EmptyState>{t('areas.empty')}</EmptyState>
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
                        {area.kind === 'DEPARTMENT'
                          ? departmentName(area.departmentId)
                          : area.kind === 'ROOM'
                            ? t('where.aRoom')
                            : t('areas.desks', { count: area.deskIds.length })}
                      </span>
                      <span className="rule-where">
                        {t('areas.where', {
                          hasDays: area.weekdays.length > 0 ? 'yes' : 'no',
                          days: weekdayList(area.weekdays),
                          teams: area.teamIds.map((id) => teamName(id)).join(', '),
                          exclusive: area.exclusive ? 'yes' : 'no',
                        })}
                      </span>
                      <button
                        type="button"
                        className="small"
                        onClick={() => {
                          setAreaSaved(undefined);
                          setEditing(area.id);
                        }}
                      >
                        {t('areas.change')}
                        <span className="visually-hidden"> {t('areas.hidden', { name: area.name })}</span>
                      </button>
                      <button type="button" className="small" onClick={() => setDeleting({ kind: 'area', id: area.id, name: area.name })}>
                        {t('common:remove')}
                        <span className="visually-hidden"> {t('areas.hidden', { name: area.name })}</span>
                      </button>
                    </li>
                  ),
                )}
              </ul>
            )
          }
        </Loaded>
        {areaSaved && <Alert kind="success">{areaSaved}</Alert>}
        <h3>{t('areas.add')}</h3>
        <AreaForm key={areaSaved ?? 'new'} onDone={saved} />
      </section>
      <PreviewForm />
      {deleting && (
        <DeleteDialog
          title={deleting.kind === 'rule' ? t('remove.ruleTitle') : t('remove.areaTitle')}
          question={t('remove.question', { name: deleting.name })}
          subject={deleting.kind === 'rule' ? t('rules.subject') : t('areas.subject')}
          remove={() => (deleting.kind === 'rule' ? deleteRule(deleting.id) : deleteArea(deleting.id))}
          invalidates={STALE_AFTER.policies}
          onDeleted={() => setDeleting(undefined)}
          onClose={() => setDeleting(undefined)}
        />
      )}
    </div>
  );
}

/** The role a rule binds, as a key of who.role.* in the policies namespace. */
const roleOf = (role?: string) => (role === 'TEAM_MANAGER' ? 'TEAM_MANAGER' : role === 'ADMIN' ? 'ADMIN' : 'USER');

function NewRuleForm({
  departments,
  areas,
  teams,
}: {
  departments: { id: string; label: string }[];
  areas: PolicyArea[];
  teams: { id: string; name: string }[];
}) {
  const { t } = useTranslation('policies');
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
      limit.weekdays = WEEKDAYS.filter((code) => days.includes(code));
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
      <h2 id="new-rule-heading">{t('newRule.heading')}</h2>
      <form onSubmit={submit} className="policy-form">
        <SelectField label={t('newRule.limit')} value={kind} onChange={(event) => setKind(event.target.value as Kind)}>
          {LIMIT_KINDS.map((value) => (
            <option key={value} value={value}>
              {limitLabel(value)}
            </option>
          ))}
        </SelectField>
        {need && (
          <TextField label={t(`figure.${need.label}`)} type="number" min={0} required value={figure} onChange={(event) => setFigure(event.target.value)} />
        )}
        {(kind === 'MAX_BOOKINGS' || kind === 'MAX_HOURS') && (
          <SelectField label={t('newRule.per')} value={per} onChange={(event) => setPer(event.target.value as typeof per)}>
            <option value="DAY">{t('newRule.period.DAY')}</option>
            <option value="WEEK">{t('newRule.period.WEEK')}</option>
            <option value="MONTH">{t('newRule.period.MONTH')}</option>
          </SelectField>
        )}
        {kind === 'GRANULARITY' && (
          <SelectField label={t('newRule.bookedIn')} value={unit} onChange={(event) => setUnit(event.target.value as typeof unit)}>
            <option value="DAY">{t('newRule.unit.DAY')}</option>
            <option value="HOUR">{t('newRule.unit.HOUR')}</option>
          </SelectField>
        )}
        {kind === 'WEEKDAYS_HOURS' && (
          <>
            <fieldset>
              <legend>{t('newRule.allowedOn')}</legend>
              <div className="checkbox-grid">
                {weekdayOrder().map((code) => (
                  <Checkbox
                    key={code}
                    label={weekdayWord(code)}
                    checked={days.includes(code)}
                    onChange={(event) => setDays(event.target.checked ? [...days, code] : days.filter((day) => day !== code))}
                  />
                ))}
              </div>
            </fieldset>
            <TextField label={t('newRule.earliest')} type="time" value={from} onChange={(event) => setFrom(event.target.value)} />
            <TextField label={t('newRule.latest')} type="time" value={to} onChange={(event) => setTo(event.target.value)} />
          </>
        )}
        <SelectField label={t('common:fields.where')} value={scope} onChange={(event) => setScope(event.target.value as ScopeKind)}>
          <option value="EVERYWHERE">{t('newRule.scope.EVERYWHERE')}</option>
          <option value="DEPARTMENT">{t('newRule.scope.DEPARTMENT')}</option>
          <option value="ROOM">{t('newRule.scope.ROOM')}</option>
          <option value="AREA">{t('newRule.scope.AREA')}</option>
          <option value="DESK_TYPE">{t('newRule.scope.DESK_TYPE')}</option>
        </SelectField>
        {(scope === 'DEPARTMENT' || scope === 'ROOM') && (
          <SelectField
            label={t('common:fields.office')}
            required
            value={departmentId}
            onChange={(event) => {
              setDepartmentId(event.target.value);
              setRoomId('');
            }}
          >
            <option value="">{t('newRule.chooseOffice')}</option>
            {departments.map((d) => (
              <option key={d.id} value={d.id}>
                {d.label}
              </option>
            ))}
          </SelectField>
        )}
        {scope === 'ROOM' && (
          <SelectField label={t('common:fields.room')} required value={roomId} disabled={!departmentId} onChange={(event) => setRoomId(event.target.value)}>
            <option value="">{departmentId ? t('chooseRoom') : t('chooseOfficeFirst')}</option>
            {(rooms.data ?? []).map((room) => (
              <option key={room.id} value={room.id}>
                {room.name}
              </option>
            ))}
          </SelectField>
        )}
        {scope === 'AREA' && (
          <SelectField label={t('common:fields.area')} required value={areaId} onChange={(event) => setAreaId(event.target.value)}>
            <option value="">{areas.length > 0 ? t('newRule.chooseArea') : t('newRule.noAreas')}</option>
            {areas.map((area) => (
              <option key={area.id} value={area.id}>
                {area.name}
              </option>
            ))}
          </SelectField>
        )}
        {scope === 'DESK_TYPE' && (
          <SelectField label={t('newRule.kindOfDesk')} value={deskType} onChange={(event) => setDeskType(event.target.value as typeof deskType)}>
            <option value="FLEX">{t('where.deskType', { type: 'FLEX' })}</option>
            <option value="FIXED">{t('where.deskType', { type: 'FIXED' })}</option>
          </SelectField>
        )}
        <SelectField label={t('newRule.who')} value={who} onChange={(event) => setWho(event.target.value as typeof who)}>
          <option value="EVERYONE">{t('who.everyone')}</option>
          <option value="TEAM">{t('newRule.oneTeam')}</option>
          <option value="USER">{t('who.role.USER')}</option>
          <option value="TEAM_MANAGER">{t('who.role.TEAM_MANAGER')}</option>
          <option value="ADMIN">{t('who.role.ADMIN')}</option>
        </SelectField>
        {who === 'TEAM' && (
          <SelectField label={t('newRule.team')} required value={teamId} onChange={(event) => setTeamId(event.target.value)}>
            <option value="">{teams.length > 0 ? t('newRule.chooseTeam') : t('newRule.noTeams')}</option>
            {teams.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </SelectField>
        )}
        <Checkbox label={t('newRule.bindsAdmins')} checked={appliesToAdmins} onChange={(event) => setAppliesToAdmins(event.target.checked)} />
        <TextField label={t('newRule.name')} maxLength={100} value={name} onChange={(event) => setName(event.target.value)} />
        <SubmitButton busy={create.isPending}>{t('newRule.add')}</SubmitButton>
      </form>
      {create.error && <Alert kind="error">{errorText(create.error, t('rules.subject'))}</Alert>}
      {saved && !create.error && <Alert kind="success">{t('newRule.added')}</Alert>}
    </section>
  );
}

/** "Test a booking against the rules": for a person (their id), a desk and a time, what the rules would say. */
function PreviewForm() {
  const { t } = useTranslation('policies');
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
      <h2 id="preview-heading">{t('preview.heading')}</h2>
      <form onSubmit={submit} className="policy-form">
        <TextField label={t('preview.person')} required value={userId} onChange={(event) => setUserId(event.target.value)} />
        <TextField label={t('preview.desk')} required value={deskId} onChange={(event) => setDeskId(event.target.value)} />
        <TextField label={t('preview.start')} type="datetime-local" required value={start} onChange={(event) => setStart(event.target.value)} />
        <TextField label={t('figure.hours')} type="number" min={1} max={24 * 62} required value={hours} onChange={(event) => setHours(event.target.value)} />
        <SubmitButton busy={preview.isPending}>{t('preview.test')}</SubmitButton>
      </form>
      {preview.error && <Alert kind="error">{errorText(preview.error)}</Alert>}
      {result && (
        <div role="status" className="preview-result">
          {result.allowed ? (
            <Alert kind="success">{t('preview.allowed')}</Alert>
          ) : (
            <Alert kind="warning">{t('preview.refused', { message: result.refusal?.message ?? '' })}</Alert>
          )}
          <p>
            {result.rules.length === 0 ? t('preview.noRules') : t('preview.rules', { rules: result.rules.map((rule) => limitLabel(rule.kind)).join(', ') })}
          </p>
        </div>
      )}
    </section>
  );
}
