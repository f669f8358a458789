import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Room } from '../../../api/types.js';
import { Alert, Checkbox, EmptyState, Loaded, Pager, TextField } from '../../../components/ui.js';
import { SHORT_TEXT_MAX } from '../../../lib/fields.js';
import { useSchemaForm } from '../../../lib/forms.js';
import { errorText } from '../../../lib/problems.js';
import { Link } from '../../../router.js';
import { AddForm } from './AddForm.js';
import { ROOM_RULES, RoomForm } from '../forms.js';
import { DeleteInventoryDialog } from './DeleteInventoryDialog.js';
import { useCreateRoom, useRooms } from '../queries.js';
import '../styles.css';

/** The rooms of a department, a page at a time, and the form that adds one. */
export function Rooms({ departmentId }: { departmentId: string }) {
  const { t } = useTranslation('inventory');
  const [page, setPage] = useState(0);
  const [deleting, setDeleting] = useState<Room>();
  const [notice, setNotice] = useState<string>();
  const rooms = useRooms(departmentId, page);

  return (
    <section className="panel" aria-labelledby="rooms-heading">
      <h2 id="rooms-heading">{t('rooms.heading')}</h2>
      {notice && (
        <Alert kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Alert>
      )}
      <Loaded query={rooms} label={t('rooms.loading')}>
        {(result) =>
          result.content.length === 0 ? (
            <EmptyState>{t('rooms.empty')}</EmptyState>
          ) : (
            <>
              <ul className="item-list">
                {result.content.map((room) => (
                  <li key={room.id} className="item">
                    <div>
                      <Link to={`/admin/departments/${departmentId}/rooms/${room.id}`} className="item-title">
                        {room.name}
                      </Link>
                      <p className="muted">
                        {t('rooms.desks', { count: room.desks.length })}
                        {!room.available && <span className="badge badge-warning">{t('rooms.closed')}</span>}
                      </p>
                    </div>
                    <div className="item-actions">
                      <Link
                        to={`/admin/departments/${departmentId}/rooms/${room.id}`}
                        className="button button-secondary button-small"
                        aria-label={t('rooms.manageLabel', { name: room.name })}
                      >
                        {t('manage')}
                      </Link>
                      <button
                        type="button"
                        className="button-danger button-small"
                        onClick={() => setDeleting(room)}
                        aria-label={t('rooms.deleteLabel', { name: room.name })}
                      >
                        {t('common:delete')}
                      </button>
                    </div>
                  </li>
                ))}
              </ul>
              <Pager page={result.number} totalPages={result.totalPages} onPage={setPage} label={t('rooms.pages')} />
            </>
          )
        }
      </Loaded>
      <NewRoom departmentId={departmentId} onCreated={(room) => setNotice(t('rooms.added', { name: room.name }))} />
      {deleting && (
        <DeleteInventoryDialog
          item={{ kind: 'room', room: deleting }}
          onDeleted={() => {
            setNotice(t('rooms.deleted', { name: deleting.name }));
            setDeleting(undefined);
          }}
          onClose={() => setDeleting(undefined)}
        />
      )}
    </section>
  );
}

const NO_ROOM = { name: '', available: true };

function NewRoom({ departmentId, onCreated }: { departmentId: string; onCreated: (room: Room) => void }) {
  const { t } = useTranslation('inventory');
  const form = useSchemaForm(RoomForm, NO_ROOM, ROOM_RULES);
  const creating = useCreateRoom((room) => {
    form.reset(NO_ROOM);
    onCreated(room);
  });
  const failure = errorText(creating.error, t('department.subject'));
  return (
    <AddForm
      title={t('rooms.add')}
      submitLabel={t('rooms.addSubmit')}
      onSubmit={form.handleSubmit((body) => creating.mutate({ params: { path: { departmentId } }, body }))}
      failure={failure}
      busy={creating.isPending}
    >
      <TextField label={t('room.name')} maxLength={SHORT_TEXT_MAX} {...form.field('name')} />
      <Checkbox label={t('room.open')} {...form.register('available')} />
    </AddForm>
  );
}
