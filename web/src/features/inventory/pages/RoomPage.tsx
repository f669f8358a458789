import { useTranslation } from 'react-i18next';
import type { Room } from '../../../api/types.js';
import { DetailsPanel } from '../../../components/DetailsPanel.js';
import { Checkbox, EmptyState, Loaded, PageHeader, TextField } from '../../../components/ui.js';
import { PrintLabelsButton } from '../../../components/PrintLabelsButton.js';
import { PublicUrlWarning } from '../../../components/PublicUrlWarning.js';
import { useTitle } from '../../../hooks.js';
import { SHORT_TEXT_MAX } from '../../../lib/fields.js';
import { useSchemaForm } from '../../../lib/forms.js';
import { navigate } from '../../../router.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { DeleteInventoryDialog } from '../components/DeleteInventoryDialog.js';
import { DeskItem, NewDesk } from '../components/Desks.js';
import { ManyDesks } from '../components/ManyDesks.js';
import { detailsState } from '../components/details.js';
import { ROOM_RULES, RoomForm } from '../forms.js';
import { departmentLabel } from '../../../lib/labels.js';
import { useDepartment, useRoom, useSaveRoom } from '../queries.js';

export function RoomPage({ departmentId, roomId }: { departmentId: string; roomId: string }) {
  const { t } = useTranslation('inventory');
  const department = useDepartment(departmentId);
  const room = useRoom(departmentId, roomId);
  useTitle(room.data ? t('room.title', { name: room.data.name }) : t('common:fields.room'));
  return (
    <div className="page">
      <Loaded query={room} subject={t('room.subject')} label={t('room.loading')}>
        {(loaded) => (
          <>
            <Breadcrumbs
              trail={[
                { to: '/admin/departments', label: t('departments.title') },
                { to: `/admin/departments/${departmentId}`, label: department.data ? departmentLabel(department.data) : t('common:fields.office') },
                { label: loaded.name },
              ]}
            />
            <PageHeader title={t('room.title', { name: loaded.name })}>
              <PrintLabelsButton roomId={loaded.id} />
            </PageHeader>
            <PublicUrlWarning what="qrLabels" />
            <RoomDetails room={loaded} />
            <section className="panel" aria-labelledby="desks-heading">
              <h2 id="desks-heading">{t('room.desksHeading')}</h2>
              {loaded.desks.length === 0 ? (
                <EmptyState>{t('room.noDesks')}</EmptyState>
              ) : (
                <ul className="desk-admin-list">
                  {loaded.desks.map((desk) => (
                    <DeskItem key={desk.id} desk={desk} />
                  ))}
                </ul>
              )}
              <NewDesk departmentId={departmentId} roomId={roomId} />
              <ManyDesks departmentId={departmentId} roomId={roomId} />
            </section>
          </>
        )}
      </Loaded>
    </div>
  );
}

function RoomDetails({ room }: { room: Room }) {
  const { t } = useTranslation('inventory');
  const form = useSchemaForm(RoomForm, { name: room.name, available: room.available }, ROOM_RULES);
  const saving = useSaveRoom();
  const path = { departmentId: room.departmentId, roomId: room.id };
  return (
    <DetailsPanel
      headingId="room-details-heading"
      {...detailsState(saving, t('room.subject'))}
      onSubmit={form.handleSubmit((body) => saving.mutate({ params: { path }, body }))}
      deleteLabel={t('room.delete')}
      deleteDialog={(close) => (
        <DeleteInventoryDialog item={{ kind: 'room', room }} onDeleted={() => navigate(`/admin/departments/${room.departmentId}`)} onClose={close} />
      )}
    >
      <div className="field-row field-row-end">
        <TextField label={t('room.name')} maxLength={SHORT_TEXT_MAX} {...form.field('name')} />
        <Checkbox label={t('room.open')} {...form.register('available')} />
      </div>
    </DetailsPanel>
  );
}
