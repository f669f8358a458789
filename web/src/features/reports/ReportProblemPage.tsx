import { Type, type Static } from '@sinclair/typebox';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation('reports');
  useTitle(t('problem.title'));
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
  const failure = errorText(sending.error, t('problem.subject'));
  const mail = useSettings()?.mailConfigured;

  const desks = rooms.data?.find((room) => room.id === roomId)?.desks ?? [];
  const items = equipment.data?.content ?? [];
  const submit = form.handleSubmit(({ equipmentId: chosen, ...report }) =>
    sending.mutate({ body: { ...report, reportedBy: user.id, ...(chosen ? { equipmentId: chosen } : {}) } }),
  );

  return (
    <div className="page page-narrow">
      <PageHeader title={t('problem.title')} />
      <p className="lead">{t('problem.lead')}</p>
      {sending.isSuccess && (
        // Say what really happens (docs/behaviour.md#report-status): nobody is mailed; the admins find it on their list, and its status shows below.
        <Alert kind="success" onDismiss={() => sending.reset()}>
          {mail === false ? t('problem.sentNoMail') : t('problem.sent')}
        </Alert>
      )}
      {failure && <Alert kind="error">{failure}</Alert>}
      <form className="panel stack" onSubmit={submit} noValidate aria-label={t('problem.title')}>
        <Loaded query={departments} label={t('problem.loadingOffices')}>
          {(list) => (
            <SelectField
              label={t('common:fields.office')}
              value={departmentId}
              onChange={(event) => choose({ departmentId: event.target.value, roomId: '', deskId: '', equipmentId: '' })}
            >
              <Options placeholder={t('problem.chooseOffice')} items={list} label={departmentLabel} />
            </SelectField>
          )}
        </Loaded>
        <SelectField
          label={t('common:fields.room')}
          value={roomId}
          disabled={!departmentId || !rooms.isSuccess}
          onChange={(event) => choose({ roomId: event.target.value, deskId: '', equipmentId: '' })}
        >
          <Options
            placeholder={rooms.isFetching && departmentId ? t('problem.loadingRooms') : t('problem.chooseRoom')}
            items={rooms.data ?? []}
            label={(room) => room.name}
          />
        </SelectField>
        <SelectField
          label={t('common:fields.desk')}
          value={deskId}
          disabled={!roomId}
          onChange={(event) => choose({ deskId: event.target.value, equipmentId: '' })}
          error={form.formState.errors.deskId?.message}
        >
          <Options placeholder={t('problem.chooseDesk')} items={desks} label={(desk) => desk.name} />
        </SelectField>
        <SelectField
          label={t('problem.equipment')}
          value={equipmentId}
          disabled={!deskId || items.length === 0}
          onChange={(event) => choose({ equipmentId: event.target.value })}
          hint={deskId && equipment.isSuccess && items.length === 0 ? t('problem.noEquipment') : undefined}
        >
          <Options placeholder={t('problem.deskItself')} items={items} label={(item) => t('equipment', { name: item.name, type: equipmentLabel(item.type) })} />
        </SelectField>
        {rooms.error && <Alert kind="error">{errorText(rooms.error)}</Alert>}
        <TextField label={t('problem.titleField')} maxLength={SHORT_TEXT_MAX} {...form.field('title')} placeholder={t('problem.titlePlaceholder')} />
        <TextArea label={t('problem.description')} rows={5} maxLength={LONG_TEXT_MAX} {...form.field('description')} />
        <FormButtons busy={sending.isPending} busyLabel={t('problem.sending')}>
          {t('problem.submit')}
        </FormButtons>
      </form>
      <section aria-labelledby="my-reports-heading">
        <h2 id="my-reports-heading">{t('problem.mine')}</h2>
        <Loaded query={mine} label={t('problem.loadingMine')}>
          {(page) =>
            page.content.length === 0 ? (
              <EmptyState>{t('problem.noneMine')}</EmptyState>
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
