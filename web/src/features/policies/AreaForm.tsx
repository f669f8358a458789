import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueries } from '@tanstack/react-query';
import { $api } from '../../api/client.js';
import { OfficePicker } from '../inventory/OfficePicker.js';
import { Alert, Checkbox, FormButtons, SelectField, TextField } from '../../components/ui.js';
import { errorText } from '../../lib/problems.js';
import { deskTitle } from '../../lib/labels.js';
import { useAllDepartments, useAllRooms } from '../inventory/queries.js';
import { useAllTeams, useSaveArea, WEEKDAYS, weekdayOrder, weekdayWord, type PolicyArea, type PolicyAreaInput } from './queries.js';

type AreaKind = PolicyArea['kind'];

/**
 * Create or change an area (docs/policies.md#areas): a name; a whole office, a room, or some desks
 * of a room (a neighbourhood); the teams it is reserved for; the weekdays; whether others are kept
 * out. Editing an area of a room or desks first finds the room's office among the offices' rooms.
 */
export function AreaForm({ area, onDone }: { area?: PolicyArea; onDone: (saved: PolicyArea) => void }) {
  const { t } = useTranslation('policies');
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
        ? t('areaForm.missing.office')
        : kind === 'ROOM' && !roomId
          ? t('areaForm.missing.room')
          : kind === 'DESKS' && deskIds.length === 0
            ? t('areaForm.missing.desk')
            : teamIds.length === 0
              ? t('areaForm.missing.team')
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
      weekdays: WEEKDAYS.filter((code) => weekdays.includes(code)),
      exclusive,
    };
    save.mutate(body);
  };

  return (
    <form onSubmit={submit} className="area-form" aria-label={area ? t('areaForm.change', { name: area.name }) : t('areaForm.new')} noValidate>
      <TextField label={t('common:fields.name')} required maxLength={100} value={name} onChange={(event) => setName(event.target.value)} />
      <SelectField label={t('areaForm.what')} value={kind} onChange={(event) => setKind(event.target.value as AreaKind)}>
        <option value="DEPARTMENT">{t('areaForm.kind.DEPARTMENT')}</option>
        <option value="ROOM">{t('areaForm.kind.ROOM')}</option>
        <option value="DESKS">{t('areaForm.kind.DESKS')}</option>
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
          label={t('common:fields.room')}
          required
          value={roomId}
          disabled={!departmentId}
          onChange={(event) => {
            setRoomId(event.target.value);
            setDeskIds([]);
          }}
        >
          <option value="">{departmentId ? t('chooseRoom') : t('chooseOfficeFirst')}</option>
          {(rooms.data ?? []).map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.name}
            </option>
          ))}
        </SelectField>
      )}
      {kind === 'DESKS' && room && (
        <fieldset>
          <legend>{t('areaForm.desks')}</legend>
          {room.desks.length === 0 ? (
            <p className="muted">{t('areaForm.noDesks')}</p>
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
        <legend>{t('areaForm.teams')}</legend>
        {teams.data && teams.data.length === 0 ? (
          <p className="muted">{t('areaForm.noTeams')}</p>
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
        <legend>{t('areaForm.days')}</legend>
        <div className="checkbox-grid">
          {weekdayOrder().map((code) => (
            <Checkbox
              key={code}
              label={weekdayWord(code)}
              checked={weekdays.includes(code)}
              onChange={(event) => setWeekdays(toggle(weekdays, code, event.target.checked))}
            />
          ))}
        </div>
      </fieldset>
      <Checkbox label={t('areaForm.exclusive')} checked={exclusive} onChange={(event) => setExclusive(event.target.checked)} />
      {(missing || save.error) && <Alert kind="error">{missing ?? errorText(save.error, t('areas.subject'))}</Alert>}
      <FormButtons busy={save.isPending} onCancel={area ? () => onDone(area) : undefined} cancelLabel={t('common:cancel')}>
        {area ? t('areaForm.save') : t('areaForm.add')}
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
