import { useEffect, useState, type FormEvent } from 'react';
import { api, asIs, call, fileBody } from '../../api/client.js';
import { forgetPlaces } from '../../api/places.js';
import type { Department, Desk, Equipment, Room } from '../../api/types.js';
import { DeleteDialog } from '../../components/DeleteDialog.js';
import { DetailsPanel } from '../../components/DetailsPanel.js';
import { ImageButtons, useImageUpload } from '../../components/ImageUpload.js';
import { Alert, Checkbox, EmptyState, Loaded, PageHeader, Pager, SelectField, TextArea, TextField } from '../../components/ui.js';
import { useAction, useLoad, useTitle } from '../../hooks.js';
import { EQUIPMENT_TYPES, equipmentLabel, floorLabel, placeLabel, type EquipmentType } from '../../lib/search.js';
import { hasErrors, validateDepartment, validateEquipment, validateName, type FormErrors } from '../../lib/validation.js';
import { Link, navigate } from '../../router.js';

/** Admin pages for the office inventory: departments (offices) → rooms → desks → equipment. */

const PAGE_SIZE = 20;

function Breadcrumbs({ trail }: { trail: { to?: string; label: string }[] }) {
  return (
    <nav aria-label="Breadcrumb" className="breadcrumbs">
      <ol>
        {trail.map((step) => (
          <li key={step.label}>{step.to ? <Link to={step.to}>{step.label}</Link> : <span aria-current="page">{step.label}</span>}</li>
        ))}
      </ol>
    </nav>
  );
}

interface DepartmentForm {
  location: string;
  building: string;
  floor: string;
}

function DepartmentFields({ form, setForm, errors }: { form: DepartmentForm; setForm: (form: DepartmentForm) => void; errors: FormErrors }) {
  return (
    <div className="field-row">
      <TextField label="Location" value={form.location} maxLength={200} onChange={(event) => setForm({ ...form, location: event.target.value })} error={errors.location} placeholder="City or site" />
      <TextField label="Building" value={form.building} maxLength={200} onChange={(event) => setForm({ ...form, building: event.target.value })} error={errors.building} />
      <TextField label="Floor" type="number" inputMode="numeric" value={form.floor} onChange={(event) => setForm({ ...form, floor: event.target.value })} error={errors.floor} />
    </div>
  );
}

const departmentBody = (form: DepartmentForm) => ({ location: form.location.trim(), building: form.building.trim(), floor: Number(form.floor) });

export function DepartmentsPage() {
  useTitle('Offices');
  const [page, setPage] = useState(0);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Department>();
  const [notice, setNotice] = useState<string>();
  const list = useLoad(() => call(api.GET('/api/departments', { params: { query: { page, size: PAGE_SIZE } } })), [page]);

  return (
    <div className="page">
      <PageHeader title="Offices">
        {!adding && (
          <button type="button" className="button-primary" onClick={() => setAdding(true)}>
            Add an office
          </button>
        )}
      </PageHeader>
      <p className="lead">An office is one floor of a building at a location. It holds rooms, the rooms hold desks, and desks can have equipment.</p>
      {notice && (
        <Alert kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Alert>
      )}
      {adding && <NewDepartment onCancel={() => setAdding(false)} />}
      <Loaded state={list.state} retry={() => void list.reload()} label="Loading offices…">
        {(result) =>
          result.content.length === 0 ? (
            <EmptyState>No offices yet. Add the first one to start.</EmptyState>
          ) : (
            <>
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Location</th>
                    <th scope="col">Building</th>
                    <th scope="col">Floor</th>
                    <th scope="col">Rooms</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {result.content.map((department) => (
                    <tr key={department.id}>
                      <td data-label="Location">
                        <Link to={`/admin/departments/${department.id}`}>{department.location}</Link>
                      </td>
                      <td data-label="Building">{department.building}</td>
                      <td data-label="Floor">{floorLabel(department.floor)}</td>
                      <td data-label="Rooms">{department.rooms.length}</td>
                      <td className="table-actions">
                        <Link to={`/admin/departments/${department.id}`} className="button button-secondary button-small" aria-label={`Manage ${placeLabel(department)}`}>
                          Manage
                        </Link>
                        <button type="button" className="button-danger button-small" onClick={() => setDeleting(department)} aria-label={`Delete ${placeLabel(department)}`}>
                          Delete
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager page={result.number} totalPages={result.totalPages} onPage={setPage} label="Office pages" />
            </>
          )
        }
      </Loaded>
      {deleting && (
        <DeleteDialog
          title="Delete this office?"
          question={`${placeLabel(deleting)} will be deleted.`}
          subject="This office"
          forceNote="Deleting everything removes its rooms, their desks and equipment, its picture and every reservation of those desks. Defect reports stay, without the place."
          onDelete={(force) => call(api.DELETE('/api/departments/{departmentId}', { params: { path: { departmentId: deleting.id }, query: force ? { force } : {} } }))}
          onDeleted={() => {
            setNotice(`${placeLabel(deleting)} has been deleted.`);
            setDeleting(undefined);
            forgetPlaces();
            void list.reload();
          }}
          onClose={() => setDeleting(undefined)}
        />
      )}
    </div>
  );
}

function NewDepartment({ onCancel }: { onCancel: () => void }) {
  const [form, setForm] = useState<DepartmentForm>({ location: '', building: '', floor: '0' });
  const [errors, setErrors] = useState<FormErrors>({});
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateDepartment(form);
    setErrors(found);
    if (hasErrors(found)) return;
    await action.run(async () => {
      const created = await call(api.POST('/api/departments', { body: departmentBody(form) }));
      forgetPlaces();
      navigate(`/admin/departments/${created.id}`);
    });
  };
  return (
    <form className="panel stack" onSubmit={submit} noValidate aria-label="New office">
      <h2>New office</h2>
      {action.error && <Alert kind="error">{action.error}</Alert>}
      <DepartmentFields form={form} setForm={setForm} errors={errors} />
      <div className="form-actions">
        <button type="button" className="button-secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button-primary" disabled={action.busy}>
          {action.busy ? 'Creating…' : 'Create the office'}
        </button>
      </div>
    </form>
  );
}

export function DepartmentPage({ departmentId }: { departmentId: string }) {
  const department = useLoad(() => call(api.GET('/api/departments/{departmentId}', { params: { path: { departmentId } } })), [departmentId], 'This office');
  useTitle(department.state.data ? placeLabel(department.state.data) : 'Office');
  return (
    <div className="page">
      <Loaded state={department.state} retry={() => void department.reload()} label="Loading the office…">
        {(loaded) => (
          <>
            <Breadcrumbs trail={[{ to: '/admin/departments', label: 'Offices' }, { label: placeLabel(loaded) }]} />
            <PageHeader title={placeLabel(loaded)} />
            <div className="two-columns">
              <DepartmentDetails department={loaded} onSaved={(updated) => department.update((old) => ({ ...old, ...updated }))} />
              <DepartmentImage department={loaded} />
            </div>
            <Rooms departmentId={departmentId} />
          </>
        )}
      </Loaded>
    </div>
  );
}

/**
 * Saving an item's details: validates, saves, forgets the cached places and says "Saved.".
 * `save` answers the saved item, which goes to `onSaved`.
 */
function useDetailsSave<T>(subject: string, validate: () => FormErrors, save: () => Promise<T>, onSaved: (saved: T) => void) {
  const [errors, setErrors] = useState<FormErrors>({});
  const [saved, setSaved] = useState(false);
  const action = useAction(subject);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate();
    setErrors(found);
    setSaved(false);
    if (hasErrors(found)) return;
    await action.run(async () => {
      onSaved(await save());
      forgetPlaces();
      setSaved(true);
    });
  };
  return { errors, panel: { error: action.error, saved, busy: action.busy, onSubmit: submit } };
}

function DepartmentDetails({ department, onSaved }: { department: Department; onSaved: (department: Department) => void }) {
  const [form, setForm] = useState<DepartmentForm>({ location: department.location, building: department.building, floor: String(department.floor) });
  const { errors, panel } = useDetailsSave(
    'This office',
    () => validateDepartment(form),
    () => call(api.PUT('/api/departments/{departmentId}', { params: { path: { departmentId: department.id } }, body: departmentBody(form) })),
    onSaved,
  );
  return (
    <DetailsPanel
      headingId="details-heading"
      {...panel}
      deleteLabel="Delete the office"
      deleteDialog={{
        title: 'Delete this office?',
        question: `${placeLabel(department)} will be deleted.`,
        subject: 'This office',
        forceNote: 'Deleting everything removes its rooms, their desks and equipment, its picture and every reservation of those desks. Defect reports stay, without the place.',
        onDelete: (force) => call(api.DELETE('/api/departments/{departmentId}', { params: { path: { departmentId: department.id }, query: force ? { force } : {} } })),
        onDeleted: () => {
          forgetPlaces();
          navigate('/admin/departments');
        },
      }}
    >
      <DepartmentFields form={form} setForm={setForm} errors={errors} />
    </DetailsPanel>
  );
}

function DepartmentImage({ department }: { department: Department }) {
  const [version, setVersion] = useState(0);
  // 404 means "no picture yet"; the image needs the token, so it is shown from a blob URL.
  const image = useLoad(async () => {
    const { data, response } = await api.GET('/api/departments/{departmentId}/image', { params: { path: { departmentId: department.id } }, parseAs: 'blob' });
    if (response.status === 404) return undefined;
    if (!response.ok || !(data instanceof Blob)) throw new Error('image');
    return URL.createObjectURL(data);
  }, [department.id, version]);
  useEffect(() => {
    const url = image.state.data;
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [image.state.data]);

  const path = { departmentId: department.id };
  const editor = useImageUpload({
    // The image routes take a multipart body, which the OpenAPI document does not describe.
    upload: async (file) => {
      await call(api.PUT('/api/departments/{departmentId}/image', { params: { path }, body: fileBody(file) as never, bodySerializer: asIs }));
      setVersion((value) => value + 1);
    },
    remove: async () => {
      await call(api.DELETE('/api/departments/{departmentId}/image', { params: { path } }));
      setVersion((value) => value + 1);
    },
    uploaded: 'The picture has been updated.',
    removed: 'The picture has been removed.',
    uploadSubject: 'This office',
    removeSubject: 'The picture',
  });

  const url = image.state.data;
  return (
    <section className="panel" aria-labelledby="picture-heading">
      <h2 id="picture-heading">Picture or floor plan</h2>
      {editor.message && <Alert kind={editor.message.kind}>{editor.message.text}</Alert>}
      {image.state.status === 'failed' ? (
        <Alert kind="error">The picture could not be loaded.</Alert>
      ) : image.state.status === 'loading' && url === undefined ? (
        <p className="muted">Loading the picture…</p>
      ) : url ? (
        <img src={url} alt={`Picture of ${placeLabel(department)}`} className="department-image" />
      ) : (
        <p className="muted">No picture yet.</p>
      )}
      <div className="form-actions form-actions-start">
        <ImageButtons image={editor} present={Boolean(url)} replaceLabel="Replace the picture" />
      </div>
      <p className="field-hint">PNG, JPEG or WebP, up to 5 MB.</p>
    </section>
  );
}

function Rooms({ departmentId }: { departmentId: string }) {
  const [page, setPage] = useState(0);
  const [deleting, setDeleting] = useState<Room>();
  const [notice, setNotice] = useState<string>();
  const rooms = useLoad(() => call(api.GET('/api/departments/{departmentId}/rooms', { params: { path: { departmentId }, query: { page, size: PAGE_SIZE } } })), [departmentId, page]);

  return (
    <section className="panel" aria-labelledby="rooms-heading">
      <h2 id="rooms-heading">Rooms</h2>
      {notice && (
        <Alert kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Alert>
      )}
      <Loaded state={rooms.state} retry={() => void rooms.reload()} label="Loading rooms…">
        {(result) =>
          result.content.length === 0 ? (
            <EmptyState>No rooms yet.</EmptyState>
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
                        {room.desks.length} {room.desks.length === 1 ? 'desk' : 'desks'}
                        {!room.available && <span className="badge badge-warning">Closed</span>}
                      </p>
                    </div>
                    <div className="item-actions">
                      <Link to={`/admin/departments/${departmentId}/rooms/${room.id}`} className="button button-secondary button-small" aria-label={`Manage room ${room.name}`}>
                        Manage
                      </Link>
                      <button type="button" className="button-danger button-small" onClick={() => setDeleting(room)} aria-label={`Delete room ${room.name}`}>
                        Delete
                      </button>
                    </div>
                  </li>
                ))}
              </ul>
              <Pager page={result.number} totalPages={result.totalPages} onPage={setPage} label="Room pages" />
            </>
          )
        }
      </Loaded>
      <NewRoom
        departmentId={departmentId}
        onCreated={(room) => {
          setNotice(`Room ${room.name} has been added.`);
          void rooms.reload();
        }}
      />
      {deleting && (
        <DeleteDialog
          title="Delete this room?"
          question={`Room ${deleting.name} will be deleted.`}
          subject="This room"
          forceNote="Deleting everything removes its desks, their equipment and every reservation of those desks."
          onDelete={(force) => call(api.DELETE('/api/departments/{departmentId}/rooms/{roomId}', { params: { path: { departmentId, roomId: deleting.id }, query: force ? { force } : {} } }))}
          onDeleted={() => {
            setNotice(`Room ${deleting.name} has been deleted.`);
            setDeleting(undefined);
            forgetPlaces();
            void rooms.reload();
          }}
          onClose={() => setDeleting(undefined)}
        />
      )}
    </section>
  );
}

function NewRoom({ departmentId, onCreated }: { departmentId: string; onCreated: (room: Room) => void }) {
  const [name, setName] = useState('');
  const [available, setAvailable] = useState(true);
  const [errors, setErrors] = useState<FormErrors>({});
  const action = useAction('This office');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateName({ name }, 'Room name');
    setErrors(found);
    if (hasErrors(found)) return;
    await action.run(async () => {
      const room = await call(api.POST('/api/departments/{departmentId}/rooms', { params: { path: { departmentId } }, body: { name: name.trim(), available } }));
      forgetPlaces();
      setName('');
      onCreated(room);
    });
  };
  return (
    <form onSubmit={submit} noValidate className="inline-form" aria-label="Add a room">
      <h3>Add a room</h3>
      {action.error && <Alert kind="error">{action.error}</Alert>}
      <div className="field-row field-row-end">
        <TextField label="Room name" value={name} maxLength={200} onChange={(event) => setName(event.target.value)} error={errors.name} />
        <Checkbox label="Open for booking" checked={available} onChange={(event) => setAvailable(event.target.checked)} />
        <button type="submit" className="button-primary" disabled={action.busy}>
          {action.busy ? 'Adding…' : 'Add the room'}
        </button>
      </div>
    </form>
  );
}

export function RoomPage({ departmentId, roomId }: { departmentId: string; roomId: string }) {
  const department = useLoad(() => call(api.GET('/api/departments/{departmentId}', { params: { path: { departmentId } } })), [departmentId], 'This office');
  const room = useLoad(() => call(api.GET('/api/departments/{departmentId}/rooms/{roomId}', { params: { path: { departmentId, roomId } } })), [departmentId, roomId], 'This room');
  useTitle(room.state.data ? `Room ${room.state.data.name}` : 'Room');
  const office = department.state.data;
  return (
    <div className="page">
      <Loaded state={room.state} retry={() => void room.reload()} label="Loading the room…">
        {(loaded) => (
          <>
            <Breadcrumbs
              trail={[
                { to: '/admin/departments', label: 'Offices' },
                { to: `/admin/departments/${departmentId}`, label: office ? placeLabel(office) : 'Office' },
                { label: loaded.name },
              ]}
            />
            <PageHeader title={`Room ${loaded.name}`} />
            <RoomDetails room={loaded} onSaved={(updated) => room.update(() => updated)} />
            <section className="panel" aria-labelledby="desks-heading">
              <h2 id="desks-heading">Desks</h2>
              {loaded.desks.length === 0 ? (
                <EmptyState>No desks yet.</EmptyState>
              ) : (
                <ul className="desk-admin-list">
                  {loaded.desks.map((desk) => (
                    <DeskItem key={desk.id} desk={desk} onChanged={() => void room.reload()} />
                  ))}
                </ul>
              )}
              <NewDesk departmentId={departmentId} roomId={roomId} onCreated={() => void room.reload()} />
            </section>
          </>
        )}
      </Loaded>
    </div>
  );
}

function RoomDetails({ room, onSaved }: { room: Room; onSaved: (room: Room) => void }) {
  const [name, setName] = useState(room.name);
  const [available, setAvailable] = useState(room.available);
  const path = { departmentId: room.departmentId, roomId: room.id };
  const { errors, panel } = useDetailsSave(
    'This room',
    () => validateName({ name }, 'Room name'),
    () => call(api.PUT('/api/departments/{departmentId}/rooms/{roomId}', { params: { path }, body: { name: name.trim(), available } })),
    onSaved,
  );
  return (
    <DetailsPanel
      headingId="room-details-heading"
      {...panel}
      deleteLabel="Delete the room"
      deleteDialog={{
        title: 'Delete this room?',
        question: `Room ${room.name} will be deleted.`,
        subject: 'This room',
        forceNote: 'Deleting everything removes its desks, their equipment and every reservation of those desks.',
        onDelete: (force) => call(api.DELETE('/api/departments/{departmentId}/rooms/{roomId}', { params: { path, query: force ? { force } : {} } })),
        onDeleted: () => {
          forgetPlaces();
          navigate(`/admin/departments/${room.departmentId}`);
        },
      }}
    >
      <div className="field-row field-row-end">
        <TextField label="Room name" value={name} maxLength={200} onChange={(event) => setName(event.target.value)} error={errors.name} />
        <Checkbox label="Open for booking" checked={available} onChange={(event) => setAvailable(event.target.checked)} />
      </div>
    </DetailsPanel>
  );
}

const DESK_TYPES = [
  { value: 'FLEX', label: 'Flexible (anyone can book it)' },
  { value: 'FIXED', label: 'Fixed (assigned by an admin)' },
] as const;
type DeskType = (typeof DESK_TYPES)[number]['value'];

function DeskFields({ name, setName, type, setType, error }: { name: string; setName: (name: string) => void; type: DeskType; setType: (type: DeskType) => void; error?: string }) {
  return (
    <>
      <TextField label="Desk name" value={name} maxLength={200} onChange={(event) => setName(event.target.value)} error={error} />
      <SelectField label="Desk type" value={type} onChange={(event) => setType(event.target.value as DeskType)}>
        {DESK_TYPES.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </SelectField>
    </>
  );
}

function NewDesk({ departmentId, roomId, onCreated }: { departmentId: string; roomId: string; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [type, setType] = useState<DeskType>('FLEX');
  const [errors, setErrors] = useState<FormErrors>({});
  const action = useAction('This room');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateName({ name }, 'Desk name');
    setErrors(found);
    if (hasErrors(found)) return;
    const done = await action.run(async () => {
      await call(api.POST('/api/departments/{departmentId}/rooms/{roomId}/desks', { params: { path: { departmentId, roomId } }, body: { name: name.trim(), type } }));
      forgetPlaces();
    });
    if (done) {
      setName('');
      onCreated();
    }
  };
  return (
    <form onSubmit={submit} noValidate className="inline-form" aria-label="Add a desk">
      <h3>Add a desk</h3>
      {action.error && <Alert kind="error">{action.error}</Alert>}
      <div className="field-row field-row-end">
        <DeskFields name={name} setName={setName} type={type} setType={setType} error={errors.name} />
        <button type="submit" className="button-primary" disabled={action.busy}>
          {action.busy ? 'Adding…' : 'Add the desk'}
        </button>
      </div>
    </form>
  );
}

function DeskItem({ desk, onChanged }: { desk: Desk; onChanged: () => void }) {
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [name, setName] = useState(desk.name);
  const [type, setType] = useState<DeskType>(desk.type as DeskType);
  const [errors, setErrors] = useState<FormErrors>({});
  const action = useAction('This desk');
  const path = { departmentId: desk.departmentId, roomId: desk.roomId, deskId: desk.id };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateName({ name }, 'Desk name');
    setErrors(found);
    if (hasErrors(found)) return;
    const done = await action.run(() => call(api.PUT('/api/departments/{departmentId}/rooms/{roomId}/desks/{deskId}', { params: { path }, body: { name: name.trim(), type } })));
    if (done) {
      forgetPlaces();
      setEditing(false);
      onChanged();
    }
  };

  return (
    <li className="desk-admin">
      <div className="desk-admin-head">
        {editing ? (
          <form onSubmit={submit} noValidate className="field-row field-row-end grow" aria-label={`Edit desk ${desk.name}`}>
            <DeskFields name={name} setName={setName} type={type} setType={setType} error={errors.name} />
            <div className="item-actions">
              <button type="button" className="button-secondary button-small" onClick={() => setEditing(false)}>
                Cancel
              </button>
              <button type="submit" className="button-primary button-small" disabled={action.busy}>
                Save
              </button>
            </div>
          </form>
        ) : (
          <>
            <h3>
              Desk {desk.name} <span className={desk.type === 'FIXED' ? 'badge badge-warning' : 'badge'}>{desk.type === 'FIXED' ? 'Fixed' : 'Flexible'}</span>
            </h3>
            <div className="item-actions">
              <button type="button" className="button-secondary button-small" onClick={() => setEditing(true)} aria-label={`Edit desk ${desk.name}`}>
                Edit
              </button>
              <button type="button" className="button-danger button-small" onClick={() => setDeleting(true)} aria-label={`Delete desk ${desk.name}`}>
                Delete
              </button>
            </div>
          </>
        )}
      </div>
      {action.error && <Alert kind="error">{action.error}</Alert>}
      <EquipmentList desk={desk} />
      {deleting && (
        <DeleteDialog
          title="Delete this desk?"
          question={`Desk ${desk.name} will be deleted.`}
          subject="This desk"
          forceNote="Deleting everything removes its equipment and every reservation of the desk, including future ones."
          onDelete={(force) => call(api.DELETE('/api/departments/{departmentId}/rooms/{roomId}/desks/{deskId}', { params: { path, query: force ? { force } : {} } }))}
          onDeleted={() => {
            setDeleting(false);
            forgetPlaces();
            onChanged();
          }}
          onClose={() => setDeleting(false)}
        />
      )}
    </li>
  );
}

interface EquipmentForm {
  name: string;
  type: EquipmentType;
  description: string;
}

function EquipmentFields({ form, setForm, errors }: { form: EquipmentForm; setForm: (form: EquipmentForm) => void; errors: FormErrors }) {
  return (
    <>
      <div className="field-row">
        <SelectField label="Equipment type" value={form.type} onChange={(event) => setForm({ ...form, type: event.target.value as EquipmentType })}>
          {EQUIPMENT_TYPES.map((type) => (
            <option key={type} value={type}>
              {equipmentLabel(type)}
            </option>
          ))}
        </SelectField>
        <TextField label="Equipment name" value={form.name} maxLength={200} onChange={(event) => setForm({ ...form, name: event.target.value })} error={errors.name} />
      </div>
      <TextArea label="Description (optional)" rows={2} value={form.description} onChange={(event) => setForm({ ...form, description: event.target.value })} error={errors.description} />
    </>
  );
}

function EquipmentList({ desk }: { desk: Desk }) {
  const path = { departmentId: desk.departmentId, roomId: desk.roomId, deskId: desk.id };
  const items = useLoad(() => call(api.GET('/api/departments/{departmentId}/rooms/{roomId}/desks/{deskId}/equipment', { params: { path, query: { size: 100 } } })), [desk.id]);
  const [adding, setAdding] = useState(false);
  return (
    <div className="equipment">
      <Loaded state={items.state} retry={() => void items.reload()} label="Loading equipment…">
        {(page) =>
          page.content.length === 0 ? (
            <p className="muted">No equipment.</p>
          ) : (
            <ul className="equipment-list" aria-label={`Equipment of desk ${desk.name}`}>
              {page.content.map((item) => (
                <EquipmentItem key={item.id} desk={desk} item={item} onChanged={() => void items.reload()} />
              ))}
            </ul>
          )
        }
      </Loaded>
      {adding ? (
        <NewEquipment
          desk={desk}
          onDone={(created) => {
            setAdding(false);
            if (created) void items.reload();
          }}
        />
      ) : (
        <button type="button" className="button-link" onClick={() => setAdding(true)} aria-label={`Add equipment to desk ${desk.name}`}>
          + Add equipment
        </button>
      )}
    </div>
  );
}

function NewEquipment({ desk, onDone }: { desk: Desk; onDone: (created: boolean) => void }) {
  const [form, setForm] = useState<EquipmentForm>({ name: '', type: 'DOCKING_STATION', description: '' });
  const [errors, setErrors] = useState<FormErrors>({});
  const action = useAction('This desk');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateEquipment(form);
    setErrors(found);
    if (hasErrors(found)) return;
    const done = await action.run(() =>
      call(
        api.POST('/api/departments/{departmentId}/rooms/{roomId}/desks/{deskId}/equipment', {
          params: { path: { departmentId: desk.departmentId, roomId: desk.roomId, deskId: desk.id } },
          body: { name: form.name.trim(), type: form.type, description: form.description },
        }),
      ),
    );
    if (done) onDone(true);
  };
  return (
    <form onSubmit={submit} noValidate className="inline-form stack" aria-label={`Add equipment to desk ${desk.name}`}>
      {action.error && <Alert kind="error">{action.error}</Alert>}
      <EquipmentFields form={form} setForm={setForm} errors={errors} />
      <div className="form-actions">
        <button type="button" className="button-secondary button-small" onClick={() => onDone(false)}>
          Cancel
        </button>
        <button type="submit" className="button-primary button-small" disabled={action.busy}>
          {action.busy ? 'Adding…' : 'Add the equipment'}
        </button>
      </div>
    </form>
  );
}

function EquipmentItem({ desk, item, onChanged }: { desk: Desk; item: Equipment; onChanged: () => void }) {
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [form, setForm] = useState<EquipmentForm>({ name: item.name, type: item.type as EquipmentType, description: item.description });
  const [errors, setErrors] = useState<FormErrors>({});
  const action = useAction('This equipment');
  const path = { departmentId: desk.departmentId, roomId: desk.roomId, deskId: desk.id, equipmentId: item.id };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateEquipment(form);
    setErrors(found);
    if (hasErrors(found)) return;
    const done = await action.run(() =>
      call(api.PUT('/api/departments/{departmentId}/rooms/{roomId}/desks/{deskId}/equipment/{equipmentId}', { params: { path }, body: { name: form.name.trim(), type: form.type, description: form.description } })),
    );
    if (done) {
      setEditing(false);
      onChanged();
    }
  };

  if (editing) {
    return (
      <li className="equipment-item">
        <form onSubmit={submit} noValidate className="stack grow" aria-label={`Edit ${item.name}`}>
          {action.error && <Alert kind="error">{action.error}</Alert>}
          <EquipmentFields form={form} setForm={setForm} errors={errors} />
          <div className="form-actions">
            <button type="button" className="button-secondary button-small" onClick={() => setEditing(false)}>
              Cancel
            </button>
            <button type="submit" className="button-primary button-small" disabled={action.busy}>
              Save
            </button>
          </div>
        </form>
      </li>
    );
  }
  return (
    <li className="equipment-item">
      <div>
        <strong>{item.name}</strong> <span className="badge">{equipmentLabel(item.type)}</span>
        {item.description && <p className="muted">{item.description}</p>}
      </div>
      <div className="item-actions">
        <button type="button" className="button-secondary button-small" onClick={() => setEditing(true)} aria-label={`Edit ${item.name}`}>
          Edit
        </button>
        <button type="button" className="button-danger button-small" onClick={() => setDeleting(true)} aria-label={`Delete ${item.name}`}>
          Delete
        </button>
      </div>
      {deleting && (
        <DeleteDialog
          title="Delete this equipment?"
          question={`${item.name} will be removed from desk ${desk.name}.`}
          subject="This equipment"
          onDelete={() => call(api.DELETE('/api/departments/{departmentId}/rooms/{roomId}/desks/{deskId}/equipment/{equipmentId}', { params: { path } }))}
          onDeleted={() => {
            setDeleting(false);
            onChanged();
          }}
          onClose={() => setDeleting(false)}
        />
      )}
    </li>
  );
}
