import { Type, type Static } from '@sinclair/typebox';
import { Alert, EmptyState, FormButtons, Loaded, Options, PageHeader, SelectField, TextArea, TextField } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { LONG_TEXT_MAX, Name, ReportDescription, SHORT_TEXT_MAX } from '../../lib/fields.js';
import { useSchemaForm } from '../../lib/forms.js';
import { errorText } from '../../lib/problems.js';
import { formatDateTime } from '../../lib/time.js';
import { useLocation } from '../../router.js';
import { useUser } from '../auth/AuthProvider.js';
import { departmentLabel, equipmentLabel } from '../../lib/labels.js';
import { useAllDepartments, useAllRooms, useEquipmentOf } from '../inventory/queries.js';
import { useSettings } from '../../api/settings.js';
import { ReportStatusBadge, ReportStatusNote } from './components/ReportStatusBadge.js';
import { useMyReports, useSendReport } from './queries.js';
import './styles.css';

// Where (chosen from lists, each narrowed by the one before) and what.
const ReportForm = Type.Object({
  departmentId: Type.String(),
  roomId: Type.String(),
  deskId: Type.String({ minLength: 1 }),
  equipmentId: Type.String(),
  title: Name('Title'),
  description: ReportDescription(),
});
type Where = Pick<Static<typeof ReportForm>, 'departmentId' | 'roomId' | 'deskId' | 'equipmentId'>;

export function ReportProblemPage() {
  useTitle('Report a problem');
  const { user } = useUser();
  const { search } = useLocation();
  const form = useSchemaForm(
    ReportForm,
    {
      departmentId: search.get('departmentId') ?? '',
      roomId: search.get('roomId') ?? '',
      deskId: search.get('deskId') ?? '',
      equipmentId: '',
      title: '',
      description: '',
    },
    { trim: ['title'] },
  );
  const [departmentId, roomId, deskId, equipmentId] = form.watch(['departmentId', 'roomId', 'deskId', 'equipmentId']);
  // The lists are controlled here: their options arrive after the values (from the address).
  const choose = (where: Partial<Where>) => {
    for (const [name, value] of Object.entries(where)) form.setValue(name as keyof Where, value, { shouldValidate: form.formState.isSubmitted });
  };

  const departments = useAllDepartments();
  const rooms = useAllRooms(departmentId || undefined);
  const equipment = useEquipmentOf(departmentId && roomId && deskId ? { departmentId, roomId, id: deskId } : undefined);
  const mine = useMyReports(user.id);
  const sending = useSendReport(() => form.reset({ ...form.getValues(), title: '', description: '' }));
  const failure = errorText(sending.error, 'The desk');
  const mail = useSettings()?.mailConfigured;

  const desks = rooms.data?.find((room) => room.id === roomId)?.desks ?? [];
  const items = equipment.data?.content ?? [];
  const submit = form.handleSubmit(({ equipmentId: chosen, ...report }) =>
    sending.mutate({ body: { ...report, reportedBy: user.id, ...(chosen ? { equipmentId: chosen } : {}) } }),
  );

  return (
    <div className="page page-narrow">
      <PageHeader title="Report a problem" />
      <p className="lead">Something broken or missing at a desk? Tell the admins of this Deskbook.</p>
      {sending.isSuccess && (
        // Say what really happens (docs/behaviour.md#report-status): nobody is mailed; the admins find it on their list, and its status shows below.
        <Alert kind="success" onDismiss={() => sending.reset()}>
          Thank you, your report is saved. The admins see it in their list of defect reports{mail === false ? ' (no mail is sent to them)' : ''}; when they take
          it up or resolve it, its status changes under &ldquo;Your reports&rdquo; below.
        </Alert>
      )}
      {failure && <Alert kind="error">{failure}</Alert>}
      <form className="panel stack" onSubmit={submit} noValidate aria-label="Report a problem">
        <Loaded query={departments} label="Loading offices…">
          {(list) => (
            <SelectField
              label="Office"
              value={departmentId}
              onChange={(event) => choose({ departmentId: event.target.value, roomId: '', deskId: '', equipmentId: '' })}
            >
              <Options placeholder="Choose an office" items={list} label={departmentLabel} />
            </SelectField>
          )}
        </Loaded>
        <SelectField
          label="Room"
          value={roomId}
          disabled={!departmentId || !rooms.isSuccess}
          onChange={(event) => choose({ roomId: event.target.value, deskId: '', equipmentId: '' })}
        >
          <Options placeholder={rooms.isFetching && departmentId ? 'Loading rooms…' : 'Choose a room'} items={rooms.data ?? []} label={(room) => room.name} />
        </SelectField>
        <SelectField
          label="Desk"
          value={deskId}
          disabled={!roomId}
          onChange={(event) => choose({ deskId: event.target.value, equipmentId: '' })}
          error={form.formState.errors.deskId?.message}
        >
          <Options placeholder="Choose a desk" items={desks} label={(desk) => desk.name} />
        </SelectField>
        <SelectField
          label="Equipment (optional)"
          value={equipmentId}
          disabled={!deskId || items.length === 0}
          onChange={(event) => choose({ equipmentId: event.target.value })}
          hint={deskId && equipment.isSuccess && items.length === 0 ? 'This desk has no equipment listed.' : undefined}
        >
          <Options placeholder="The desk itself" items={items} label={(item) => `${item.name} (${equipmentLabel(item.type)})`} />
        </SelectField>
        {rooms.error && <Alert kind="error">{errorText(rooms.error)}</Alert>}
        <TextField label="Title" maxLength={SHORT_TEXT_MAX} {...form.field('title')} placeholder="For example: Docking station has no power" />
        <TextArea label="What is wrong?" rows={5} maxLength={LONG_TEXT_MAX} {...form.field('description')} />
        <FormButtons busy={sending.isPending} busyLabel="Sending…">
          Send the report
        </FormButtons>
      </form>
      <section aria-labelledby="my-reports-heading">
        <h2 id="my-reports-heading">Your reports</h2>
        <Loaded query={mine} label="Loading your reports…">
          {(page) =>
            page.content.length === 0 ? (
              <EmptyState>You have not reported anything yet.</EmptyState>
            ) : (
              <ul className="simple-list my-reports">
                {page.content.map(({ report, status }) => (
                  <li key={report.id}>
                    <strong>{report.title}</strong> <ReportStatusBadge status={status} /> <span className="muted">· {formatDateTime(report.createdAt)}</span>
                    <ReportStatusNote status={status} />
                  </li>
                ))}
              </ul>
            )
          }
        </Loaded>
      </section>
    </div>
  );
}
