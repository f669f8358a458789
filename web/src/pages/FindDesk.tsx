import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type FormEvent } from 'react';
import { api, call } from '../api/client.js';
import { departments as loadDepartments } from '../api/places.js';
import { useUser } from '../auth.js';
import { Alert, Checkbox, Loading, PageHeader, SelectField, TextField } from '../components/ui.js';
import { useLoad, useTitle } from '../hooks.js';
import { bookingConflictMessage, problemMessage, problemOf } from '../lib/problems.js';
import {
  changeFilter,
  departmentMatches,
  EQUIPMENT_TYPES,
  equipmentLabel,
  filterChoices,
  findDeskReducer,
  floorLabel,
  freeDeskCount,
  initialFindDesk,
  NO_FILTERS,
  placeLabel,
  roomSearchBody,
  type DeskFilters,
  type FreeDesk,
  type RoomWithFreeDesks,
} from '../lib/search.js';
import { formatRange, tomorrowWindow, windowToIso, type LocalWindow } from '../lib/time.js';
import { hasErrors, validateWindow, type FormErrors } from '../lib/validation.js';
import { Link } from '../router.js';

const ROOMS_PER_PAGE = 50;

export function FindDesk() {
  useTitle('Find a desk');
  const { user } = useUser();
  const departments = useLoad(loadDepartments, []);
  const [when, setWhen] = useState<LocalWindow>(() => tomorrowWindow(new Date()));
  const [filters, setFilters] = useState<DeskFilters>(NO_FILTERS);
  const [errors, setErrors] = useState<FormErrors>({});
  const [state, dispatch] = useReducer(findDeskReducer, initialFindDesk);
  // The search shown: results stay tied to the time and filters they were found for.
  const [searched, setSearched] = useState<{ filters: DeskFilters; start: string; end: string }>();
  const resultsHeading = useRef<HTMLHeadingElement>(null);

  const departmentsById = useMemo(() => new Map((departments.state.data ?? []).map((department) => [department.id, department])), [departments.state.data]);
  const choices = filterChoices(departments.state.data ?? [], filters);

  const fetchPage = useCallback(
    async (query: NonNullable<typeof searched>, page: number) => {
      const result = await call(
        api.POST('/api/search/rooms', {
          params: { query: { page, size: ROOMS_PER_PAGE } },
          body: roomSearchBody(query.filters, { start: query.start, end: query.end }),
        }),
      );
      return { rooms: result.content, totalRooms: result.totalElements, page };
    },
    [],
  );

  // Only the answer to the latest search is shown, whatever order answers arrive in.
  const latestSearch = useRef(0);
  const search = useCallback(
    async (query: NonNullable<typeof searched>) => {
      const mine = ++latestSearch.current;
      setSearched(query);
      dispatch({ type: 'search' });
      try {
        const found = await fetchPage(query, 0);
        if (mine !== latestSearch.current) return undefined;
        dispatch({ type: 'results', ...found });
        return found.rooms;
      } catch (error) {
        if (mine === latestSearch.current) dispatch({ type: 'search-failed', message: problemMessage(problemOf(error)) });
        return undefined;
      }
    },
    [fetchPage],
  );

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const found = validateWindow(when, new Date());
    setErrors(found);
    const range = windowToIso(when);
    if (hasErrors(found) || !range) return;
    void search({ filters, ...range }).then(() => resultsHeading.current?.focus());
  };

  // The default search (tomorrow, 09:00–17:00, anywhere) runs on arrival.
  useEffect(() => {
    const range = windowToIso(when);
    if (range) void search({ filters, ...range });
    // Only on arrival; later searches are asked for with the button.
  }, []);

  const more = async () => {
    if (!searched) return;
    dispatch({ type: 'more' });
    try {
      dispatch({ type: 'results', ...(await fetchPage(searched, state.page + 1)) });
    } catch (error) {
      dispatch({ type: 'search-failed', message: problemMessage(problemOf(error)) });
    }
  };

  const book = async (desk: FreeDesk, room: RoomWithFreeDesks) => {
    if (!searched) return;
    dispatch({ type: 'book', deskId: desk.id });
    const range = formatRange(searched.start, searched.end);
    try {
      await call(api.POST('/api/reservation', { body: { deskId: desk.id, startTime: searched.start, endTime: searched.end } }));
      dispatch({ type: 'booked', notice: { kind: 'success', text: `Booked: desk ${desk.name} in ${room.name}, ${range}.` } });
      void search(searched);
    } catch (error) {
      const problem = problemOf(error);
      if (problem.code === 'RESERVATION_CONFLICT') {
        // Whether the desk is still free tells someone else's booking from one of the caller's own.
        const rooms = await search(searched);
        const stillFree = rooms?.some((candidate) => candidate.desks.some((free) => free.id === desk.id)) ?? false;
        dispatch({ type: 'book-failed', notice: { kind: 'error', text: bookingConflictMessage(problem, stillFree) } });
      } else {
        dispatch({ type: 'book-failed', notice: { kind: 'error', text: problemMessage(problem, 'This desk') } });
        if (problem.code === 'DESK_NOT_BOOKABLE' || problem.code === 'NOT_FOUND') void search(searched);
      }
    }
  };

  // Text criteria match substrings on the server; the exact place is kept here.
  const rooms = state.rooms.filter((room) => {
    const department = departmentsById.get(room.departmentId);
    return !searched || !department || departmentMatches(department, searched.filters);
  });

  return (
    <div className="page">
      <PageHeader title="Find a desk" />
      <p className="lead">
        Hello {user.firstName}. Choose when you need a desk; the free ones are listed below.
      </p>
      <form className="panel search-form" onSubmit={submit} noValidate aria-label="Search for free desks">
        <fieldset className="fieldset-row">
          <legend>When</legend>
          <TextField label="Date" type="date" value={when.date} onChange={(event) => setWhen({ ...when, date: event.target.value })} error={errors.date} required />
          <TextField label="From" type="time" step={900} value={when.start} onChange={(event) => setWhen({ ...when, start: event.target.value })} error={errors.start} required />
          <TextField label="To" type="time" step={900} value={when.end} onChange={(event) => setWhen({ ...when, end: event.target.value })} error={errors.end} required />
        </fieldset>
        <fieldset className="fieldset-row">
          <legend>Where</legend>
          <SelectField label="Location" value={filters.location} onChange={(event) => setFilters(changeFilter(filters, { location: event.target.value }))}>
            <option value="">Any location</option>
            {choices.locations.map((location) => (
              <option key={location}>{location}</option>
            ))}
          </SelectField>
          <SelectField label="Building" value={filters.building} onChange={(event) => setFilters(changeFilter(filters, { building: event.target.value }))}>
            <option value="">Any building</option>
            {choices.buildings.map((building) => (
              <option key={building}>{building}</option>
            ))}
          </SelectField>
          <SelectField label="Floor" value={filters.floor} onChange={(event) => setFilters(changeFilter(filters, { floor: event.target.value }))}>
            <option value="">Any floor</option>
            {choices.floors.map((floor) => (
              <option key={floor} value={String(floor)}>
                {floorLabel(floor)}
              </option>
            ))}
          </SelectField>
        </fieldset>
        <fieldset>
          <legend>The desk must have</legend>
          <div className="checkbox-grid">
            {EQUIPMENT_TYPES.filter((type) => type !== 'OTHER').map((type) => (
              <Checkbox
                key={type}
                label={equipmentLabel(type)}
                checked={filters.equipment.includes(type)}
                onChange={(event) =>
                  setFilters(changeFilter(filters, { equipment: event.target.checked ? [...filters.equipment, type] : filters.equipment.filter((chosen) => chosen !== type) }))
                }
              />
            ))}
          </div>
        </fieldset>
        {departments.state.status === 'failed' && <Alert kind="warning">The list of offices could not be loaded; you can still search everywhere.</Alert>}
        <div className="form-actions">
          <button type="submit" className="button-primary" disabled={state.status === 'loading'}>
            Search free desks
          </button>
        </div>
      </form>

      <section className="results" aria-labelledby="results-heading">
        <h2 id="results-heading" ref={resultsHeading} tabIndex={-1}>
          {searched ? `Free desks, ${formatRange(searched.start, searched.end)}` : 'Free desks'}
        </h2>
        {state.notice && (
          <Alert kind={state.notice.kind} onDismiss={() => dispatch({ type: 'dismiss' })}>
            {state.notice.text}{' '}
            {state.notice.kind === 'success' && <Link to="/reservations">See my reservations</Link>}
          </Alert>
        )}
        {state.status === 'failed' && (
          <Alert kind="error">
            {state.error}{' '}
            {searched && (
              <button type="button" className="button-link" onClick={() => void search(searched)}>
                Try again
              </button>
            )}
          </Alert>
        )}
        {state.status === 'loading' && <Loading label="Looking for free desks…" />}
        {state.status === 'ready' && rooms.length === 0 && (
          <p className="empty">No desk is free for this time with these filters. Try another time, or fewer filters.</p>
        )}
        {rooms.length > 0 && (
          <p className="muted" aria-live="polite">
            {freeDeskCount(rooms)} free {freeDeskCount(rooms) === 1 ? 'desk' : 'desks'} in {rooms.length} {rooms.length === 1 ? 'room' : 'rooms'}
          </p>
        )}
        <ul className="room-list">
          {rooms.map((room) => {
            const department = departmentsById.get(room.departmentId);
            return (
              <li key={room.id} className="room-card">
                <div className="room-card-head">
                  <h3>{room.name}</h3>
                  {department && <p className="muted">{placeLabel(department)}</p>}
                </div>
                <ul className="desk-list">
                  {room.desks.map((desk) => (
                    <li key={desk.id} className="desk-row">
                      <span className="desk-name">
                        <span className="desk-icon" aria-hidden="true" />
                        {desk.name}
                      </span>
                      <span className="desk-actions">
                        <Link to={`/report?departmentId=${room.departmentId}&roomId=${room.id}&deskId=${desk.id}`} className="button-link small" aria-label={`Report a problem with desk ${desk.name} in ${room.name}`}>
                          Report a problem
                        </Link>
                        <button
                          type="button"
                          className="button-primary button-small"
                          disabled={state.booking !== undefined}
                          onClick={() => void book(desk, room)}
                          aria-label={`Book desk ${desk.name} in ${room.name}`}
                        >
                          {state.booking === desk.id ? 'Booking…' : 'Book'}
                        </button>
                      </span>
                    </li>
                  ))}
                </ul>
              </li>
            );
          })}
        </ul>
        {state.status === 'ready' && state.rooms.length < state.totalRooms && (
          <div className="form-actions">
            <button type="button" className="button-secondary" onClick={() => void more()}>
              Show more rooms
            </button>
          </div>
        )}
      </section>
    </div>
  );
}
