import { useState, type FormEvent } from 'react';
import { useQueries } from '@tanstack/react-query';
import { $api } from '../../api/client.js';
import { OfficePicker } from '../inventory/OfficePicker.js';
import { Alert, Checkbox, FormButtons, SelectField, TextField } from '../../components/ui.js';
import { errorText } from '../../lib/problems.js';
import { deskTitle } from '../../lib/labels.js';
import { useAllDepartments, useAllRooms } from '../inventory/queries.js';
import { useAllTeams, useSaveArea, WEEKDAYS, type PolicyArea, type PolicyAreaInput } from './queries.js';

type AreaKind = PolicyArea['kind'];

/**
 * Create or change an area (docs/policies.md#areas): a name; a whole office, a room, or some desks
 * of a room (a neighbourhood); the teams it is reserved for; the weekdays; whether others are kept
 * out. Editing an area of a room or desks first finds the room's office among the offices' rooms.
 */
export function AreaForm({ area, onDone }: { area?: PolicyArea; onDone: (saved: PolicyArea) => void }) {
  const teams = useAllTeams();
  const home = useRoomHome(area);
  const [name, setName] = useState(area?.name ?? '');
  const [kind, setKind] = useState<AreaKind>(area?.kind ?? 'DESKS');
  const [chosenDepartment, setDepartmentId] = useState(area?.departmentId ?? '');
  const [chosenRoom, setRoomId] = useState(area?.roomId ?? '');
  const [deskIds, setDeskIds] = useState<string[]>(area?.deskIds ?? []);
  const [teamIds, setTeamIds] = useState<string[]>(area?.teamIds ?? []);
  const [weekdays, setWeekdays] = useState<string[]>(area?.weekdays ?? []);
  const [exclusive, setExclusive] = useState(area?.exclusive ?? true);
  const [missing, setMissing] = useState<string>();
  // Until the admin picks another, an edited room or desks area shows its own office and room.
  const departmentId = chosenDepartment || home?.departmentId || '';
  const roomId = chosenRoom || home?.roomId || '';
  const rooms = useAllRooms(kind !== 'DEPARTMENT' && departmentId ? departmentId : undefined);
  const room = rooms.data?.find((candidate) => candidate.id === roomId);
  const save = useSaveArea(area?.id, onDone);
  const toggle = (list: string[], value: string, on: boolean) =>
    on ? [...list.filter((item) => item !== value), value] : list.filter((item) => item !== value);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The choices the server would refuse are named here first, in the same words.
    const lacking =
      kind === 'DEPARTMENT' && !departmentId
        ? 'Choose the office.'
        : kind === 'ROOM' && !roomId
          ? 'Choose the room.'
          : kind === 'DESKS' && deskIds.length === 0
            ? 'Choose at least one desk.'
            : teamIds.length === 0
              ? 'Choose at least one team.'
              : undefined;
    setMissing(lacking);
    if (lacking) return;
    const body: PolicyAreaInput = {
      name: name.trim(),
      kind,
      ...(kind === 'DEPARTMENT'
        ? { departmentId }
        : kind === 'ROOM'
          ? { roomId }
          : { deskIds: deskIds.filter((id) => room?.desks.some((desk) => desk.id === id) ?? true) }),
      teamIds,
      weekdays: WEEKDAYS.map(([code]) => code).filter((code) => weekdays.includes(code)),
      exclusive,
    };
    save.mutate(body);
  };

  return (
    <form onSubmit={submit} className="area-form" aria-label={area ? `Change area ${area.name}` : 'New area'} noValidate>
      <TextField label="Name" required maxLength={100} value={name} onChange={(event) => setName(event.target.value)} />
      <SelectField label="What" value={kind} onChange={(event) => setKind(event.target.value as AreaKind)}>
        <option value="DEPARTMENT">A whole office</option>
        <option value="ROOM">A room</option>
        <option value="DESKS">Some desks of a room</option>
      </SelectField>
      <OfficePicker
        required
        value={departmentId}
        onChange={(id) => {
          setDepartmentId(id);
          setRoomId('');
          setDeskIds([]);
        }}
      />
      {kind !== 'DEPARTMENT' && (
        <SelectField
          label="Room"
          required
          value={roomId}
          disabled={!departmentId}
          onChange={(event) => {
            setRoomId(event.target.value);
            setDeskIds([]);
          }}
        >
          <option value="">{departmentId ? 'Choose a room' : 'Choose an office first'}</option>
          {(rooms.data ?? []).map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.name}
            </option>
          ))}
        </SelectField>
      )}
      {kind === 'DESKS' && room && (
        <fieldset>
          <legend>Desks</legend>
          {room.desks.length === 0 ? (
            <p className="muted">This room has no desks.</p>
          ) : (
            <div className="checkbox-grid">
              {room.desks.map((desk) => (
                <Checkbox
                  key={desk.id}
                  label={deskTitle(desk.name)}
                  checked={deskIds.includes(desk.id)}
                  onChange={(event) => setDeskIds(toggle(deskIds, desk.id, event.target.checked))}
                />
              ))}
            </div>
          )}
        </fieldset>
      )}
      <fieldset>
        <legend>Reserved for the teams</legend>
        {teams.data && teams.data.length === 0 ? (
          <p className="muted">There are no teams yet: add them under Teams first.</p>
        ) : (
          <div className="checkbox-grid">
            {(teams.data ?? []).map((team) => (
              <Checkbox
                key={team.id}
                label={team.name}
                checked={teamIds.includes(team.id)}
                onChange={(event) => setTeamIds(toggle(teamIds, team.id, event.target.checked))}
              />
            ))}
          </div>
        )}
      </fieldset>
      <fieldset>
        <legend>On (none: every day)</legend>
        <div className="checkbox-grid">
          {WEEKDAYS.map(([code, word]) => (
            <Checkbox
              key={code}
              label={word}
              checked={weekdays.includes(code)}
              onChange={(event) => setWeekdays(toggle(weekdays, code, event.target.checked))}
            />
          ))}
        </div>
      </fieldset>
      <Checkbox label="Only its teams may book there on those days" checked={exclusive} onChange={(event) => setExclusive(event.target.checked)} />
      {(missing || save.error) && <Alert kind="error">{missing ?? errorText(save.error, 'This area')}</Alert>}
      <FormButtons busy={save.isPending} onCancel={area ? () => onDone(area) : undefined}>
        {area ? 'Save area' : 'Add area'}
      </FormButtons>
    </form>
  );
}

/** The office and room of an area of a room or desks (the API names neither for a set of desks). */
function useRoomHome(area: PolicyArea | undefined): { departmentId: string; roomId: string } | undefined {
  const departments = useAllDepartments();
  const looking = area !== undefined && area.kind !== 'DEPARTMENT';
  const pages = useQueries({
    queries: (looking ? (departments.data ?? []) : []).map((department) =>
      $api.queryOptions('get', '/api/departments/{departmentId}/rooms', { params: { path: { departmentId: department.id }, query: { size: 1000 } } }),
    ),
  });
  if (!looking) return undefined;
  for (const page of pages) {
    const room = page.data?.content.find((candidate) =>
      area.kind === 'ROOM' ? candidate.id === area.roomId : candidate.desks.some((desk) => area.deskIds.includes(desk.id)),
    );
    if (room) return { departmentId: room.departmentId, roomId: room.id };
  }
  return undefined;
}
