import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Checkbox, Loading, PageHeader, SelectField, TextField } from '../../components/ui.js';
import { AllowancePanel } from '../policies/AllowancePanel.js';
import { useReservedDesks } from '../policies/queries.js';
import { useTitle } from '../../hooks.js';
import { bookingConflictMessage, errorText, problemMessage, problemOf } from '../../lib/problems.js';
import { formatRange, localDate, tomorrowWindow, windowToIso } from '../../lib/time.js';
import { Link } from '../../router.js';
import { useUser } from '../auth/AuthProvider.js';
import { awaitsApproval } from '../approvals/queries.js';
import { useBookDesk } from '../reservations/queries.js';
import { BookForField } from '../reservations/components/BookForField.js';
import type { BookablePerson } from '../../api/types.js';
import { bookedSentence } from './booked.js';
import { FloorMapView } from './FloorMapView.js';
import { useDeskEquipment, useRoomSearch } from './queries.js';
import { DeskFeatures, equipmentSentence } from '../../components/DeskFeatures.js';
import { EQUIPMENT_TYPES, departmentLabel, deskPhrase, equipmentInList, equipmentLabel, floorLabel } from '../../lib/labels.js';
import { translate } from '../../lib/translate.js';
import { useAllDepartments } from '../inventory/queries.js';
import { NoOffices } from '../inventory/components/FirstSteps.js';
import { useWindowForm } from '../reservations/window-form.js';
import { RepeatDialog } from '../series/RepeatDialog.js';
import { ClosedDayNotice } from '../closures/ClosedDayNotice.js';
import { StarButton } from '../favourites/StarButton.js';
import { UsualDialog } from '../favourites/UsualDialog.js';
import { useBookingDefaults, useFavourites, useNearTeam } from '../favourites/queries.js';
import { initialSearch, orderRooms, type DeskOrder } from './order.js';
import {
  changeFilter,
  departmentMatches,
  filterChoices,
  freeDeskCount,
  roomSearchBody,
  roomsOfPages,
  type DeskFilters,
  type FreeDesk,
  type RoomWithFreeDesks,
} from './search.js';
import './styles.css';

interface Search {
  filters: DeskFilters;
  start: string;
  end: string;
}

type Notice = { kind: 'success' | 'error'; text: string };

/** "Berlin · Spree House · any floor; with a docking station": the search in one line, for the folded form. */
function searchSummary(filters: DeskFilters): string {
  const place = [
    filters.location || translate('booking:summary.anyLocation'),
    filters.building || translate('booking:summary.anyBuilding'),
    filters.floor === '' ? translate('booking:summary.anyFloor') : floorLabel(Number(filters.floor)),
  ];
  const kit =
    filters.equipment.length > 0
      ? translate('booking:summary.with', { items: filters.equipment.map(equipmentInList).join(', ') })
      : translate('booking:summary.anyEquipment');
  return translate('booking:summary.line', { place: place.join(' · '), kit });
}

/**
 * Find a desk opens on the person's home office and usual hours (docs/favourites.md#home-office-and-default-window):
 * the page waits for them (and the offices) so that the first search is already theirs.
 */
export function FindDeskPage() {
  const { t } = useTranslation('booking');
  useTitle(t('search.title'));
  const defaults = useBookingDefaults();
  const departments = useAllDepartments();
  if ((defaults.isPending && !defaults.error) || (departments.isPending && !departments.error))
    return (
      <div className="page">
        <PageHeader title={t('search.title')} />
        <Loading label={t('common:loading')} />
      </div>
    );
  const initial = initialSearch(tomorrowWindow(new Date()), defaults.data, departments.data ?? []);
  return <FindDesk initialWindow={initial.window} initialFilters={initial.filters} />;
}

function FindDesk({ initialWindow, initialFilters }: { initialWindow: ReturnType<typeof tomorrowWindow>; initialFilters: DeskFilters }) {
  const { t } = useTranslation('booking');
  const { user, isAdmin } = useUser();
  const departments = useAllDepartments();
  const when = useWindowForm(initialWindow);
  const [filters, setFilters] = useState<DeskFilters>(initialFilters);
  // The search shown: results stay tied to the time and filters they were found for. The default
  // one (tomorrow, the usual hours or 09:00–17:00, the home office or anywhere) runs on arrival.
  const [searched, setSearched] = useState<Search>(() => ({ filters: initialFilters, ...windowToIso(when.getValues())! }));
  // The order of the free desks (docs/favourites.md): as found, favourites first, or near my team.
  const [order, setOrder] = useState<DeskOrder>('FOUND');
  const [usualOpen, setUsualOpen] = useState(false);
  const favourites = new Set((useFavourites().data?.content ?? []).map((favourite) => favourite.deskId));
  const near = useNearTeam(searched.start, searched.end, order === 'NEAR_TEAM');
  const [notice, setNotice] = useState<Notice>();
  // The list, or the map of one office (docs/behaviour.md#the-map-and-the-plan-editor-web-app); the list stays the accessible alternative.
  const [view, setView] = useState<'list' | 'map'>('list');
  const [repeating, setRepeating] = useState<{ id: string; name: string; roomName: string }>();
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  // On a phone the form folds to one line once a search is shown (the first one runs on arrival),
  // so that the free desks start near the top; "Change the search" unfolds it
  // (docs/behaviour.md#find-a-desk-on-a-phone). Wider screens always show it.
  const [changing, setChanging] = useState(false);
  const firstField = useRef<HTMLFieldSetElement>(null);
  // A booking's outcome takes keyboard and screen-reader focus: the desk booked leaves the list,
  // and focus must not fall back to the top of the page (docs/behaviour.md#focus-after-booking).
  const noticeBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (notice) noticeBox.current?.focus();
  }, [notice]);

  const departmentsById = new Map((departments.data ?? []).map((department) => [department.id, department]));
  const choices = filterChoices(departments.data ?? [], filters);

  const found = useRoomSearch(roomSearchBody(searched.filters, searched));
  const booking = useBookDesk({ onMutate: () => setNotice(undefined) });
  // Whom the next booking is for: the caller unless they choose someone (docs/policies.md#booking-for-someone-else).
  const [bookFor, setBookFor] = useState<BookablePerson>();
  // Desks an exclusive area keeps the caller out of that day, with why (docs/policies.md#why-a-desk-is-not-bookable).
  const reservedFor = useReservedDesks(searched.start, searched.end, bookFor !== undefined);

  // Text criteria match substrings on the server; the exact department is kept here.
  const matching = roomsOfPages(found.data?.pages ?? []).filter((room) => {
    const department = departmentsById.get(room.departmentId);
    return !department || departmentMatches(department, searched.filters);
  });
  const nearDesks = order === 'NEAR_TEAM' ? (near.data?.desks ?? []) : [];
  const reasons = new Map(nearDesks.map((desk) => [desk.deskId, desk.reason]));
  const rooms = orderRooms(matching, order, favourites, nearDesks);
  const kit = useDeskEquipment(rooms.map((room) => room.departmentId));

  const submit = when.handleSubmit((window) => {
    const range = windowToIso(window);
    if (!range) return;
    const next = { filters, ...range };
    // The same search again reads afresh.
    if (JSON.stringify(next) === JSON.stringify(searched)) void found.refetch();
    else setSearched(next);
    setChanging(false);
    resultsHeading.current?.focus();
  });
  const change = () => {
    setChanging(true);
    // Once shown, into its first field.
    requestAnimationFrame(() => firstField.current?.querySelector('input')?.focus());
  };

  const book = (desk: FreeDesk, room: RoomWithFreeDesks) => {
    const range = formatRange(searched.start, searched.end);
    booking.mutate(
      { body: { deskId: desk.id, startTime: searched.start, endTime: searched.end, ...(bookFor ? { userId: bookFor.id } : {}) } },
      {
        onSuccess: async (created) => {
          const pending = await awaitsApproval(created.id);
          setNotice({
            kind: 'success',
            text: `${bookedSentence(desk.name, room.name, range, bookFor)}${pending ? ` ${translate('booking:awaitingSentence')}` : ''}${equipmentSentence(kit.get(desk.id))}`,
          });
        },
        onError: async (error) => {
          const problem = problemOf(error);
          if (problem.code === 'RESERVATION_CONFLICT') {
            // Whether the desk is still free tells someone else's booking from one of the caller's own.
            const again = await found.refetch();
            const stillFree = roomsOfPages(again.data?.pages ?? []).some((candidate) => candidate.desks.some((free) => free.id === desk.id));
            setNotice({ kind: 'error', text: bookingConflictMessage(problem, stillFree) });
          } else {
            setNotice({ kind: 'error', text: problemMessage(problem, t('subject.desk')) });
            if (problem.code === 'DESK_NOT_BOOKABLE' || problem.code === 'NOT_FOUND') void found.refetch();
          }
        },
      },
    );
  };
  const bookingDesk = booking.isPending ? booking.variables.body.deskId : undefined;

  const loading = found.isFetching;
  const ready = found.isSuccess && !loading;
  const setWhere = (where: Partial<DeskFilters>) => setFilters(changeFilter(filters, where));

  // An install without offices has nothing to search (docs/behaviour.md#an-empty-install).
  if (departments.isSuccess && departments.data.length === 0) {
    return (
      <div className="page">
        <PageHeader title={t('search.title')} />
        <p className="lead">{t('search.hello', { name: user.firstName })}</p>
        <NoOffices admin={isAdmin} />
      </div>
    );
  }

  return (
    <div className="page">
      <PageHeader title={t('search.title')} />
      <AllowancePanel />
      <p className="lead">{t('search.lead', { name: user.firstName })}</p>
      {usualOpen && (
        <UsualDialog
          onClose={() => setUsualOpen(false)}
          onBooked={(text) => {
            setUsualOpen(false);
            setView('list');
            setNotice({ kind: 'success', text });
          }}
        />
      )}
      <div className="panel search-summary" data-folded={!changing}>
        <p>
          <span className="visually-hidden">{t('search.searching')} </span>
          {searchSummary(searched.filters)}
        </p>
        <button type="button" className="button-secondary button-small" aria-expanded={changing} aria-controls="search-form" onClick={change}>
          {t('search.change')}
        </button>
      </div>
      <form id="search-form" className="panel search-form" data-folded={!changing} onSubmit={submit} noValidate aria-label={t('search.formLabel')}>
        <fieldset className="fieldset-row" ref={firstField}>
          <legend>{t('search.when')}</legend>
          <TextField label={t('common:fields.date')} type="date" {...when.field('date')} required />
          <TextField label={t('time.from')} type="time" step={900} {...when.field('start')} required />
          <TextField label={t('time.to')} type="time" step={900} {...when.field('end')} required />
        </fieldset>
        <fieldset className="fieldset-row">
          <legend>{t('common:fields.where')}</legend>
          <SelectField label={t('common:fields.location')} value={filters.location} onChange={(event) => setWhere({ location: event.target.value })}>
            <option value="">{t('search.anyLocation')}</option>
            {choices.locations.map((location) => (
              <option key={location}>{location}</option>
            ))}
          </SelectField>
          <SelectField label={t('common:fields.building')} value={filters.building} onChange={(event) => setWhere({ building: event.target.value })}>
            <option value="">{t('search.anyBuilding')}</option>
            {choices.buildings.map((building) => (
              <option key={building}>{building}</option>
            ))}
          </SelectField>
          <SelectField label={t('common:fields.floor')} value={filters.floor} onChange={(event) => setWhere({ floor: event.target.value })}>
            <option value="">{t('search.anyFloor')}</option>
            {choices.floors.map((floor) => (
              <option key={floor} value={String(floor)}>
                {floorLabel(floor)}
              </option>
            ))}
          </SelectField>
        </fieldset>
        <fieldset>
          <legend>{t('search.mustHave')}</legend>
          <div className="checkbox-grid">
            {EQUIPMENT_TYPES.filter((type) => type !== 'OTHER').map((type) => (
              <Checkbox
                key={type}
                label={equipmentLabel(type)}
                checked={filters.equipment.includes(type)}
                onChange={(event) =>
                  setWhere({ equipment: event.target.checked ? [...filters.equipment, type] : filters.equipment.filter((chosen) => chosen !== type) })
                }
              />
            ))}
          </div>
        </fieldset>
        {departments.error && <Alert kind="warning">{t('search.officesFailed')}</Alert>}
        <div className="form-actions">
          <button type="submit" className="button-primary" disabled={loading}>
            {t('search.submit')}
          </button>
        </div>
      </form>

      <section className="results" aria-labelledby="results-heading">
        <h2 id="results-heading" ref={resultsHeading} tabIndex={-1}>
          {t('search.resultsHeading', { range: formatRange(searched.start, searched.end) })}
        </h2>
        <div className="results-tools">
          <div className="view-switch" role="group" aria-label={t('search.showAs')}>
            <button type="button" className="button-secondary button-small" aria-pressed={view === 'list'} onClick={() => setView('list')}>
              {t('search.list')}
            </button>
            <button type="button" className="button-secondary button-small" aria-pressed={view === 'map'} onClick={() => setView('map')}>
              {t('search.map')}
            </button>
          </div>
          {view === 'list' && (
            <span className="desk-order">
              <label htmlFor="desk-order">{t('search.order')}</label>
              <select id="desk-order" value={order} onChange={(event) => setOrder(event.target.value as DeskOrder)}>
                <option value="FOUND">{t('search.byRoom')}</option>
                <option value="FAVOURITES">{t('search.favouritesFirst')}</option>
                <option value="NEAR_TEAM">{t('search.nearTeam')}</option>
              </select>
            </span>
          )}
          <button type="button" className="button-secondary button-small" onClick={() => setUsualOpen(true)} title={t('search.usualHint')}>
            {t('search.usual')}
          </button>
        </div>
        {view === 'list' && order === 'NEAR_TEAM' && near.isFetching && <Loading label={t('search.lookingForTeam')} />}
        {view === 'list' && order === 'NEAR_TEAM' && near.data?.teams === 0 && <p className="muted">{t('search.noTeam')}</p>}
        {view === 'list' && order === 'NEAR_TEAM' && near.error && <Alert kind="error">{errorText(near.error)}</Alert>}
        <BookForField value={bookFor} onChange={setBookFor} />
        {view === 'map' && (
          <FloorMapView
            bookFor={bookFor}
            departments={(departments.data ?? []).filter((department) => departmentMatches(department, searched.filters))}
            start={searched.start}
            end={searched.end}
          />
        )}
        <ClosedDayNotice date={searched.start ? localDate(new Date(searched.start)) : ''} departments={departments.data ?? []} />
        <div ref={noticeBox} tabIndex={-1} className="notice-box">
          {view === 'list' && notice && (
            <Alert
              kind={notice.kind}
              onDismiss={() => {
                setNotice(undefined);
                resultsHeading.current?.focus();
              }}
            >
              {notice.text} {notice.kind === 'success' && <Link to="/reservations">{t('search.seeReservations')}</Link>}
            </Alert>
          )}
        </div>
        {view === 'list' && found.error && !loading && (
          <Alert kind="error">
            {errorText(found.error)}{' '}
            <button type="button" className="button-link" onClick={() => void found.refetch()}>
              {t('common:tryAgain')}
            </button>
          </Alert>
        )}
        {view === 'list' && loading && <Loading label={t('search.looking')} />}
        {view === 'list' && ready && rooms.length === 0 && <p className="empty">{t('search.none')}</p>}
        {view === 'list' && rooms.length > 0 && (
          <p className="muted" aria-live="polite">
            {t('search.found', { count: freeDeskCount(rooms), roomcount: rooms.length })}
          </p>
        )}
        {view === 'list' && (
          <ul className="room-list">
            {rooms.map((room) => {
              const department = departmentsById.get(room.departmentId);
              return (
                <li key={room.id} className="room-card">
                  <div className="room-card-head">
                    <h3>{room.name}</h3>
                    {department && <p className="muted">{departmentLabel(department)}</p>}
                  </div>
                  <ul className="desk-list">
                    {room.desks.map((desk) => {
                      const reserved = reservedFor({ id: desk.id, roomId: room.id, departmentId: room.departmentId });
                      return (
                        <li key={desk.id} className={reserved ? 'desk-row desk-row-reserved' : 'desk-row'}>
                          <span className="desk-about">
                            <span className="desk-name">
                              <span className="desk-icon" aria-hidden="true" />
                              {desk.name}
                            </span>
                            {reasons.has(desk.id) && <span className="near-reason">{reasons.get(desk.id)}</span>}
                            <DeskFeatures type={desk.type} equipment={kit.get(desk.id)} />
                            {reserved && <span className="desk-reserved">{t('search.notForYou', { reason: reserved })}</span>}
                          </span>
                          <span className="desk-actions">
                            <StarButton desk={desk} roomName={room.name} starred={favourites.has(desk.id)} />
                            <Link
                              to={`/report?departmentId=${room.departmentId}&roomId=${room.id}&deskId=${desk.id}`}
                              className="button-link small"
                              aria-label={t('search.reportAria', { desk: deskPhrase(desk.name), room: room.name })}
                            >
                              {t('search.report')}
                            </Link>
                            <button
                              type="button"
                              className="button-secondary button-small"
                              disabled={bookingDesk !== undefined}
                              onClick={() => setRepeating({ id: desk.id, name: desk.name, roomName: room.name })}
                              aria-label={t('search.repeatAria', { desk: deskPhrase(desk.name), room: room.name })}
                            >
                              {t('search.repeat')}
                            </button>
                            {!reserved && (
                              <button
                                type="button"
                                className="button-primary button-small"
                                disabled={bookingDesk !== undefined}
                                onClick={() => book(desk, room)}
                                aria-label={t('search.bookAria', { desk: deskPhrase(desk.name), room: room.name })}
                              >
                                {bookingDesk === desk.id ? t('search.booking') : t('search.book')}
                              </button>
                            )}
                          </span>
                        </li>
                      );
                    })}
                  </ul>
                </li>
              );
            })}
          </ul>
        )}
        {repeating && (
          <RepeatDialog
            desk={repeating}
            start={searched.start}
            end={searched.end}
            bookFor={bookFor}
            onClose={() => setRepeating(undefined)}
            onBooked={(text) => {
              setRepeating(undefined);
              setNotice({ kind: 'success', text });
            }}
          />
        )}
        {view === 'list' && ready && found.hasNextPage && (
          <div className="form-actions">
            <button type="button" className="button-secondary" onClick={() => void found.fetchNextPage()}>
              {t('search.more')}
            </button>
          </div>
        )}
      </section>
    </div>
  );
}
