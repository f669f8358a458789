import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.js';
import { departments as loadDepartments, roomsOf } from '../api/places.js';
import { useUser } from '../auth.js';
import { Alert, EmptyState, Loaded, PageHeader, SelectField, TextArea, TextField } from '../components/ui.js';
import { useLoad, useTitle } from '../hooks.js';
import { problemMessage, problemOf } from '../lib/problems.js';
import { equipmentLabel, placeLabel } from '../lib/search.js';
import { formatDateTime } from '../lib/time.js';
import { hasErrors, LONG_TEXT_MAX, validateReport, type FormErrors } from '../lib/validation.js';
import { useLocation } from '../router.js';

interface Place {
  departmentId: string;
  roomId: string;
  deskId: string;
  equipmentId: string;
}

export function ReportProblem() {
  useTitle('Report a problem');
  const { user } = useUser();
  const { search } = useLocation();
  const [place, setPlace] = useState<Place>(() => ({
    departmentId: search.get('departmentId') ?? '',
    roomId: search.get('roomId') ?? '',
    deskId: search.get('deskId') ?? '',
    equipmentId: '',
  }));
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<string>();
  const [sent, setSent] = useState<string>();
  const [busy, setBusy] = useState(false);

  const departments = useLoad(loadDepartments, []);
  const rooms = useLoad(() => (place.departmentId ? roomsOf(place.departmentId) : Promise.resolve([])), [place.departmentId]);
  const equipment = useLoad(
    () =>
      place.deskId && place.roomId && place.departmentId
        ? call(
            api.GET('/api/departments/{departmentId}/rooms/{roomId}/desks/{deskId}/equipment', {
              params: { path: { departmentId: place.departmentId, roomId: place.roomId, deskId: place.deskId }, query: { size: 100 } },
            }),
          ).then((page) => page.content)
        : Promise.resolve([]),
    [place.departmentId, place.roomId, place.deskId],
  );
  const mine = useLoad(() => call(api.GET('/api/report', { params: { query: { reportedBy: user.id, size: 5 } } })), [user.id, sent]);

  const desks = rooms.state.data?.find((room) => room.id === place.roomId)?.desks ?? [];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateReport({ title, description, deskId: place.deskId });
    setErrors(found);
    if (hasErrors(found)) return;
    setBusy(true);
    setFailure(undefined);
    try {
      const report = await call(
        api.POST('/api/report', {
          body: {
            title: title.trim(),
            description,
            reportedBy: user.id,
            departmentId: place.departmentId,
            roomId: place.roomId,
            deskId: place.deskId,
            ...(place.equipmentId ? { equipmentId: place.equipmentId } : {}),
          },
        }),
      );
      setSent(report.id);
      setTitle('');
      setDescription('');
    } catch (error) {
      setFailure(problemMessage(problemOf(error), 'The desk'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page page-narrow">
      <PageHeader title="Report a problem" />
      <p className="lead">Something broken or missing at a desk? Tell the office team.</p>
      {sent && (
        <Alert kind="success" onDismiss={() => setSent(undefined)}>
          Thank you, your report has been sent to the office team.
        </Alert>
      )}
      {failure && <Alert kind="error">{failure}</Alert>}
      <form className="panel stack" onSubmit={submit} noValidate aria-label="Report a problem">
        <Loaded state={departments.state} retry={() => void departments.reload()} label="Loading offices…">
          {(list) => (
            <SelectField
              label="Office"
              value={place.departmentId}
              onChange={(event) => setPlace({ departmentId: event.target.value, roomId: '', deskId: '', equipmentId: '' })}
            >
              <option value="">Choose an office</option>
              {list.map((department) => (
                <option key={department.id} value={department.id}>
                  {placeLabel(department)}
                </option>
              ))}
            </SelectField>
          )}
        </Loaded>
        <SelectField
          label="Room"
          value={place.roomId}
          disabled={!place.departmentId || rooms.state.status !== 'ready'}
          onChange={(event) => setPlace({ ...place, roomId: event.target.value, deskId: '', equipmentId: '' })}
        >
          <option value="">{rooms.state.status === 'loading' && place.departmentId ? 'Loading rooms…' : 'Choose a room'}</option>
          {(rooms.state.data ?? []).map((room) => (
            <option key={room.id} value={room.id}>
              {room.name}
            </option>
          ))}
        </SelectField>
        <SelectField label="Desk" value={place.deskId} disabled={!place.roomId} onChange={(event) => setPlace({ ...place, deskId: event.target.value, equipmentId: '' })} error={errors.deskId}>
          <option value="">Choose a desk</option>
          {desks.map((desk) => (
            <option key={desk.id} value={desk.id}>
              {desk.name}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Equipment (optional)"
          value={place.equipmentId}
          disabled={!place.deskId || (equipment.state.data ?? []).length === 0}
          onChange={(event) => setPlace({ ...place, equipmentId: event.target.value })}
          hint={place.deskId && equipment.state.status === 'ready' && equipment.state.data.length === 0 ? 'This desk has no equipment listed.' : undefined}
        >
          <option value="">The desk itself</option>
          {(equipment.state.data ?? []).map((item) => (
            <option key={item.id} value={item.id}>
              {item.name} ({equipmentLabel(item.type)})
            </option>
          ))}
        </SelectField>
        {rooms.state.status === 'failed' && <Alert kind="error">{rooms.state.error}</Alert>}
        <TextField label="Title" value={title} maxLength={200} onChange={(event) => setTitle(event.target.value)} error={errors.title} placeholder="For example: Docking station has no power" />
        <TextArea
          label="What is wrong?"
          value={description}
          rows={5}
          maxLength={LONG_TEXT_MAX}
          onChange={(event) => setDescription(event.target.value)}
          error={errors.description}
        />
        <div className="form-actions">
          <button type="submit" className="button-primary" disabled={busy}>
            {busy ? 'Sending…' : 'Send the report'}
          </button>
        </div>
      </form>
      <section aria-labelledby="my-reports-heading">
        <h2 id="my-reports-heading">Your latest reports</h2>
        <Loaded state={mine.state} retry={() => void mine.reload()} label="Loading your reports…">
          {(page) =>
            page.content.length === 0 ? (
              <EmptyState>You have not reported anything yet.</EmptyState>
            ) : (
              <ul className="simple-list">
                {page.content.map((report) => (
                  <li key={report.id}>
                    <strong>{report.title}</strong> <span className="muted">· {formatDateTime(report.createdAt)}</span>
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
