import { StarButton } from '../favourites/StarButton.js';
import { departmentLabel, deskPhrase, deskTitle } from '../../lib/labels.js';
import { useFavourites } from '../favourites/queries.js';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BookablePerson, Department } from '../../api/types.js';
import { Alert, Dialog, Loading, SelectField } from '../../components/ui.js';
import { errorText, problemMessage, problemOf } from '../../lib/problems.js';
import { formatRange } from '../../lib/time.js';
import { Link } from '../../router.js';
import { translate } from '../../lib/translate.js';
import { bookedSentence } from './booked.js';
import type { Equipment } from '../../api/types.js';
import { fitDeskLabels, uprightRotation, type DeskLabel } from '../floor-plans/fit.js';
import { usePlanImage } from '../floor-plans/components/plan-image.js';
import { PlanPatterns, reservedStyle, STATE_ORDER, stateStyle, StateSwatch, Swatch } from '../floor-plans/components/PlanPatterns.js';
import { useReservedDesks } from '../policies/queries.js';
import { ZoomPan, type ZoomPanState } from '../floor-plans/components/ZoomPan.js';
import { useFloorAvailability, useFloorPlan, type DeskAvailability } from '../floor-plans/queries.js';
import { awaitsApproval } from '../approvals/queries.js';
import { useBookDesk } from '../reservations/queries.js';
import { DeskFeatures, equipmentSentence } from '../../components/DeskFeatures.js';
import { useDeskEquipment } from './queries.js';
import { useWhoseDesks } from '../people/queries.js';
import './styles.css';

type Notice = { kind: 'success' | 'error'; text: string };

const bookable = (desk: DeskAvailability) => desk.state === 'FREE' || desk.state === 'PARTLY_FREE';

/** What a desk says to a screen reader: its name, room, state and what pressing it does. */
function deskLabel(desk: DeskAvailability, language: string, reserved?: string, favourite = false, whose?: string): string {
  const title = favourite ? translate('booking:map.favourite', { desk: deskTitle(desk.name), lng: language }) : deskTitle(desk.name);
  if (reserved) return translate('booking:map.deskReserved', { title, room: desk.roomName, reason: reserved, lng: language });
  const partly = desk.state === 'PARTLY_FREE' && desk.longestFree;
  // Whose it is, where the caller may see it (docs/people.md#the-floor-plan).
  return translate('booking:map.desk', {
    title,
    room: desk.roomName,
    state: translate(`booking:state.${desk.state}.spoken`, { lng: language }),
    partly: partly ? 'yes' : 'no',
    range: partly ? formatRange(partly.startTime, partly.endTime) : '',
    whose: whose ? 'yes' : 'no',
    person: whose ?? '',
    bookable: bookable(desk) ? 'yes' : 'no',
    lng: language,
  });
}

/**
 * "Find a desk" as a map (docs/behaviour.md#the-map-and-the-plan-editor-web-app): the chosen office's
 * plan with its desks coloured, patterned and marked by state for the window; a free desk opens the
 * booking dialog.
 */
export function FloorMapView({
  departments,
  start,
  end,
  bookFor,
}: {
  departments: Department[];
  start: string;
  end: string;
  /** Whom the booking is for, when not the caller (docs/policies.md#booking-for-someone-else). */
  bookFor?: BookablePerson;
}) {
  const { t } = useTranslation('booking');
  const [chosen, setChosen] = useState<string>();
  // The office chosen, while it is among those the filters allow; else the first of them.
  const departmentId = departments.some((department) => department.id === chosen) ? chosen : departments[0]?.id;
  const [notice, setNotice] = useState<Notice>();
  const [booking, setBooking] = useState<DeskAvailability>();
  // Free desks an exclusive area keeps the caller out of (docs/policies.md#why-a-desk-is-not-bookable).
  const reservedFor = useReservedDesks(start, end, bookFor !== undefined);
  const kit = useDeskEquipment(departmentId ? [departmentId] : []);
  // Starred desks are marked on the plan and starred in the booking dialog (docs/favourites.md#favourite-desks).
  const favourites = new Set((useFavourites().data?.content ?? []).map((favourite) => favourite.deskId));
  // A booking's outcome takes focus (docs/behaviour.md#focus-after-booking).
  const noticeBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (notice) noticeBox.current?.focus();
  }, [notice]);

  if (departments.length === 0) return <p className="empty">{t('map.noOffice')}</p>;
  return (
    <div className="floor-map">
      <SelectField label={t('common:fields.office')} value={departmentId} onChange={(event) => setChosen(event.target.value)}>
        {departments.map((department) => (
          <option key={department.id} value={department.id}>
            {departmentLabel(department)}
          </option>
        ))}
      </SelectField>
      <div ref={noticeBox} tabIndex={-1} className="notice-box">
        {notice && (
          <Alert kind={notice.kind} onDismiss={() => setNotice(undefined)}>
            {notice.text} {notice.kind === 'success' && <Link to="/reservations">{t('search.seeReservations')}</Link>}
          </Alert>
        )}
      </div>
      {departmentId && (
        <OfficeMap
          key={departmentId}
          departmentId={departmentId}
          start={start}
          end={end}
          onChoose={setBooking}
          favourites={favourites}
          reservedOf={(desk) => (bookable(desk) ? reservedFor({ id: desk.id, roomId: desk.roomId, departmentId }) : undefined)}
        />
      )}
      {departmentId && <WhoSitsWhere departmentId={departmentId} start={start} end={end} />}
      {booking && departmentId && (
        <BookDeskDialog
          desk={booking}
          reserved={bookable(booking) ? reservedFor({ id: booking.id, roomId: booking.roomId, departmentId }) : undefined}
          equipment={kit.get(booking.id)}
          starred={favourites.has(booking.id)}
          start={start}
          end={end}
          bookFor={bookFor}
          onClose={() => setBooking(undefined)}
          onDone={(result) => {
            setBooking(undefined);
            setNotice(result);
          }}
        />
      )}
    </div>
  );
}

function OfficeMap({
  departmentId,
  start,
  end,
  onChoose,
  reservedOf,
  favourites,
}: {
  departmentId: string;
  start: string;
  end: string;
  onChoose: (desk: DeskAvailability) => void;
  reservedOf: (desk: DeskAvailability) => string | undefined;
  favourites: Set<string>;
}) {
  const { t, i18n } = useTranslation('booking');
  const plan = useFloorPlan(departmentId);
  const availability = useFloorAvailability(departmentId, start, end);
  const whose = useWhoseDesks(departmentId, start, end);
  const image = usePlanImage(departmentId, Boolean(plan.data?.image));

  if (plan.error || availability.error)
    return (
      <Alert kind="error">
        {errorText(plan.error ?? availability.error, t('subject.office'))}{' '}
        <button type="button" className="button-link" onClick={() => void Promise.all([plan.refetch(), availability.refetch()])}>
          {t('common:tryAgain')}
        </button>
      </Alert>
    );
  if (!plan.data || !availability.data || image.loading) return <Loading label={t('map.loading')} />;
  const desks = availability.data.desks;
  if (desks.length === 0) return <p className="empty">{t('map.noDesks')}</p>;
  const reasons = new Map(desks.flatMap((desk) => ((reason) => (reason ? [[desk.id, reason] as const] : []))(reservedOf(desk))));
  const counts = STATE_ORDER.map((state) => [state, desks.filter((desk) => desk.state === state && !reasons.has(desk.id)).length] as const);
  // The shorter side of the smallest desk one can press: the map never draws it below a 24 px target.
  const pressable = desks.filter(bookable);
  const smallest =
    pressable.length > 0 ? Math.min(...pressable.map((desk) => Math.min(desk.position.width * image.width, desk.position.height * image.height))) : undefined;

  return (
    <>
      <svg width="0" height="0" className="visually-hidden" aria-hidden="true" focusable="false">
        <PlanPatterns />
      </svg>
      <ul className="plan-legend" aria-label={t('map.legend')}>
        {counts.map(([state, count]) => (
          <li key={state}>
            <StateSwatch state={state} />
            <span>
              <strong>{t(`state.${state}.label`)}</strong> ({count}): {t(`state.${state}.description`)}
            </span>
          </li>
        ))}
        {reasons.size > 0 && (
          <li>
            <Swatch style={reservedStyle()} />
            <span>
              <strong>{t('state.RESERVED.label')}</strong> ({reasons.size}): {t('state.RESERVED.description')}
            </span>
          </li>
        )}
      </ul>
      <p className="muted" id="map-help">
        {t('map.help')}
      </p>
      <ZoomPan width={image.width} height={image.height} label={t('map.plan', { range: formatRange(start, end) })} minTarget={smallest}>
        {(zoom) => (
          <>
            {image.url ? (
              <image href={image.url} width={image.width} height={image.height} />
            ) : (
              <rect width={image.width} height={image.height} fill="url(#fp-grid)" />
            )}
            {(() => {
              const labels = fitDeskLabels(
                desks.map((desk) => ({
                  id: desk.id,
                  group: desk.roomId,
                  name: desk.name,
                  mark: reasons.has(desk.id) ? reservedStyle().mark : stateStyle(desk.state).mark,
                  width: desk.position.width * image.width,
                  height: desk.position.height * image.height,
                })),
                zoom.pixelsPerUnit,
              );
              return desks.map((desk) => (
                <MapDesk
                  key={desk.id}
                  desk={desk}
                  reserved={reasons.get(desk.id)}
                  favourite={favourites.has(desk.id)}
                  whose={whose.get(desk.id)}
                  label={labels.get(desk.id)}
                  width={image.width}
                  height={image.height}
                  zoom={zoom}
                  onChoose={() => !zoom.panned() && onChoose(desk)}
                  language={i18n.language}
                />
              ));
            })()}
          </>
        )}
      </ZoomPan>
    </>
  );
}

/** Under the map: whose each booked desk is, where the caller may see it (docs/people.md#the-floor-plan). */
function WhoSitsWhere({ departmentId, start, end }: { departmentId: string; start: string; end: string }) {
  const { t } = useTranslation('booking');
  const whose = useWhoseDesks(departmentId, start, end);
  const availability = useFloorAvailability(departmentId, start, end);
  const desks = (availability.data?.desks ?? []).filter((desk) => whose.has(desk.id));
  if (desks.length === 0) return null;
  return (
    <details className="who-sits-where">
      <summary>{t('map.whoSitsWhere', { count: desks.length })}</summary>
      <ul>
        {desks.map((desk) => (
          <li key={desk.id}>
            {deskTitle(desk.name)}, {desk.roomName}: {whose.get(desk.id)}
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * One desk on the map: its box in its state's fill, and a label that fits the box, upright, and
 * only when readable at this zoom (docs/behaviour.md#desk-labels-and-tap-targets-on-the-map); the
 * full name is in its tooltip and accessible name.
 */
function MapDesk({
  desk,
  reserved,
  favourite,
  whose,
  label,
  width,
  height,
  zoom,
  onChoose,
  language,
}: {
  desk: DeskAvailability;
  reserved: string | undefined;
  favourite: boolean;
  whose: string | undefined;
  label: DeskLabel | undefined;
  width: number;
  height: number;
  zoom: ZoomPanState;
  onChoose: () => void;
  /** The language in use: the desk's accessible name is in it. */
  language: string;
}) {
  const { x, y, width: w, height: h, rotation } = desk.position;
  const style = reserved ? reservedStyle() : stateStyle(desk.state);
  const box = { x: x * width, y: y * height, width: w * width, height: h * height };
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const canBook = bookable(desk);
  // Worked out again only when what it says changes (or the language): the map re-renders all its desks on zoom and on opening a dialog.
  const name = useMemo(() => deskLabel(desk, language, reserved, favourite, whose), [desk, reserved, favourite, whose, language]);
  return (
    <g
      className={`plan-desk plan-desk-${reserved ? 'reserved' : desk.state.toLowerCase()}`}
      transform={`rotate(${rotation} ${centre.x} ${centre.y})`}
      role={canBook ? 'button' : 'img'}
      tabIndex={canBook ? 0 : undefined}
      aria-label={name}
      aria-describedby={canBook && !reserved ? 'map-help' : undefined}
      data-desk-id={desk.id}
      onClick={canBook ? onChoose : undefined}
      onFocus={() => zoom.reveal(box)}
      onKeyDown={
        canBook
          ? (event) => {
              if (event.key === 'Enter' || event.key === ' ') {
                event.preventDefault();
                onChoose();
              }
            }
          : undefined
      }
    >
      <title>{name}</title>
      <rect {...box} rx={Math.min(box.width, box.height) * 0.12} fill={style.fill} stroke="#111827" strokeWidth={2} />
      {label && (
        <text
          x={centre.x}
          y={centre.y}
          // Turned back by 180° where the desk is turned past 90°: never upside down.
          transform={rotation === uprightRotation(rotation) ? undefined : `rotate(${uprightRotation(rotation) - rotation} ${centre.x} ${centre.y})`}
          textAnchor="middle"
          dominantBaseline="central"
          fontSize={label.fontSize}
          fontWeight={700}
          fill="#111827"
          stroke="#ffffff"
          strokeWidth={label.fontSize / 5}
          paintOrder="stroke"
          aria-hidden="true"
        >
          {label.text}
        </text>
      )}
      {favourite && (
        <text
          x={box.x + box.width - Math.min(box.width, box.height) * 0.05}
          y={box.y + Math.min(box.width, box.height) * 0.05}
          textAnchor="end"
          dominantBaseline="hanging"
          fontSize={Math.max(10, Math.min(box.width, box.height) * 0.35)}
          fill="#8a5a00"
          stroke="#ffffff"
          strokeWidth={2}
          paintOrder="stroke"
          aria-hidden="true"
          className="plan-desk-star"
        >
          ★
        </text>
      )}
    </g>
  );
}

function BookDeskDialog({
  desk,
  reserved,
  equipment,
  starred,
  start,
  end,
  bookFor,
  onClose,
  onDone,
}: {
  desk: DeskAvailability;
  starred: boolean;
  /** Why the caller may not book it, when an exclusive area keeps them out. */
  reserved?: string;
  equipment: Equipment[] | undefined;
  start: string;
  end: string;
  bookFor?: BookablePerson;
  onClose: () => void;
  onDone: (notice: Notice) => void;
}) {
  // A partly free desk is booked for its longest free stretch.
  const range = desk.state === 'PARTLY_FREE' && desk.longestFree ? desk.longestFree : { startTime: start, endTime: end };
  const { t } = useTranslation('booking');
  const [error, setError] = useState<string>();
  const booking = useBookDesk();
  const when = formatRange(range.startTime, range.endTime);
  if (reserved)
    return (
      <Dialog title={t('map.notForYouTitle', { desk: deskTitle(desk.name) })} onClose={onClose}>
        <p>
          <strong>{deskTitle(desk.name)}</strong> {t('map.notForYou', { room: desk.roomName, range: when, reason: reserved })}
        </p>
        <div className="dialog-actions">
          <button type="button" className="button-primary" onClick={onClose}>
            {t('common:close')}
          </button>
        </div>
      </Dialog>
    );
  return (
    <Dialog
      title={
        bookFor
          ? t('map.bookFor', { desk: deskPhrase(desk.name), person: `${bookFor.firstName} ${bookFor.lastName}` })
          : t('map.book', { desk: deskPhrase(desk.name) })
      }
      onClose={onClose}
    >
      <p>
        <strong>{deskTitle(desk.name)}</strong> {t('map.where', { room: desk.roomName, range: when })}
        {desk.state === 'PARTLY_FREE' && ` ${t('map.partly')}`}
      </p>
      <DeskFeatures type={desk.type} equipment={equipment} />
      {error && <Alert kind="error">{error}</Alert>}
      <div className="dialog-actions">
        <button type="button" className="button-secondary" onClick={onClose} disabled={booking.isPending}>
          {t('common:cancel')}
        </button>
        <button
          type="button"
          className="button-primary"
          disabled={booking.isPending}
          onClick={() =>
            booking.mutate(
              { body: { deskId: desk.id, startTime: range.startTime, endTime: range.endTime, ...(bookFor ? { userId: bookFor.id } : {}) } },
              {
                onSuccess: async (created) => {
                  const pending = await awaitsApproval(created.id);
                  onDone({
                    kind: 'success',
                    text: `${bookedSentence(desk.name, desk.roomName, when, bookFor)}${pending ? ` ${translate('booking:awaitingSentence')}` : ''}${equipmentSentence(equipment)}`,
                  });
                },
                onError: (failure) => setError(problemMessage(problemOf(failure), t('subject.desk'))),
              },
            )
          }
        >
          {booking.isPending ? t('search.booking') : t('search.book')}
        </button>
      </div>
      {/* After the actions: Tab from the dialog's start still reaches Cancel, then Book. */}
      <p className="map-star">
        <StarButton desk={desk} roomName={desk.roomName} starred={starred} /> {starred ? t('map.starred') : t('map.starHint')}
      </p>
    </Dialog>
  );
}
