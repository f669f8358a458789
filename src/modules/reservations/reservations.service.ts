import type { Database } from '../../db/client.js';
import type { ReadRouting } from '../../db/replica.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, forbidden, invalid, notFound } from '../../shared/errors.js';
import { pageOf, parsePageRequest, type PageOf } from '../../shared/paging.js';
import { parseInstant } from '../../shared/time.js';
import { isAdmin, type Caller } from '../../identity/caller.js';
import { RESERVATION_SORTABLE, ReservationsRepository, type ReservationView } from './reservations.repository.js';
import { ReservationWriter, type NewReservation } from './reservations.writer.js';
import { toReservationDto } from './reservations.mappers.js';
import type { ReservationRules } from './reservations.rules.js';
import { mayActFor, type OnBehalf } from './reservations.on-behalf.js';
import type { CreateReservationBody, ReservationDto, ReservationListQuery, UpdateReservationBody } from './reservations.schemas.js';

type Booking = NewReservation;

/**
 * Reservations (docs/behaviour.md#reservations). The database keeps a desk, and a user, from ever holding two
 * overlapping reservations (exclusion constraints); this service adds the booking rules that bind
 * USERs (not in the past, not too long or too far ahead, bookable desks only) and turns a
 * constraint violation into a 409 naming the ranges that collided.
 */
export class ReservationsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly rules: ReservationRules,
    /** The list only: every check guarding a write reads the primary `db`. */
    private readonly reads: ReadRouting,
    /** Booking for someone else: the notices (docs/policies.md#booking-for-someone-else). */
    private readonly onBehalf?: OnBehalf,
  ) {}

  private get reservations() {
    return new ReservationsRepository(this.db);
  }

  private get writer() {
    return new ReservationWriter(this.db, this.clock, this.rules.onePerUser);
  }

  async list(caller: Caller, query: ReservationListQuery): Promise<PageOf<ReservationDto>> {
    const admin = isAdmin(caller);
    // Someone who may book for a person may list that person's reservations (docs/policies.md#booking-for-someone-else).
    const forUser = query.userId ?? (admin ? undefined : caller.user.id);
    if (forUser !== undefined && !(await mayActFor(this.db, caller, forUser))) throw forbidden('You may list only your own reservations');
    const from = query.from === undefined ? undefined : parseInstant('from', query.from);
    const to = query.to === undefined ? undefined : parseInstant('to', query.to);
    if (from && to && from >= to) throw invalid('to', 'must be after from');
    const request = parsePageRequest(query, RESERVATION_SORTABLE);
    const { rows, total } = await this.reads.read(caller.user.lastWriteLsn, (db) =>
      new ReservationsRepository(db).page(
        {
          userId: forUser,
          deskId: query.deskId,
          roomId: query.roomId,
          departmentId: query.departmentId,
          type: query.type,
          from,
          to,
        },
        request,
      ),
    );
    return pageOf(rows, total, request);
  }

  async get(caller: Caller, id: string): Promise<ReservationDto> {
    return toReservationDto(await this.visible(caller, id));
  }

  async create(caller: Caller, body: CreateReservationBody): Promise<ReservationDto> {
    const admin = isAdmin(caller);
    const userId = body.userId ?? caller.user.id;
    // Admins, managers of the person's team and the person's delegates book for them (docs/policies.md#booking-for-someone-else).
    if (!(await mayActFor(this.db, caller, userId))) {
      throw forbidden('You may book only for yourself, the members of teams you manage and the people who named you their delegate');
    }
    const type = body.type ?? 'shared';
    if (!admin && type !== 'shared') throw forbidden('Only admins make fixed reservations');
    const booking: Booking = {
      userId,
      deskId: body.deskId,
      startTime: parseInstant('startTime', body.startTime),
      endTime: parseInstant('endTime', body.endTime),
      type,
      ...(userId === caller.user.id ? {} : { bookedBy: caller.user.id }),
    };
    // The rules bind as for the person: their figures count; only an admin booker is exempt, as ever.
    const { id, desk } = await this.writer.book(this.rules, { id: caller.user.id, admin }, booking, this.onBehalf?.notice(caller, booking, 'booked'));
    return toReservationDto({ id, ...booking, roomId: desk.roomId, departmentId: desk.departmentId });
  }

  async update(caller: Caller, id: string, body: UpdateReservationBody): Promise<ReservationDto> {
    const existing = await this.visible(caller, id);
    this.ensureUserMayChange(caller, existing);
    if (!isAdmin(caller) && body.type !== undefined && body.type !== 'shared') throw forbidden('Only admins make fixed reservations');
    const booking: Booking = {
      userId: existing.userId,
      deskId: body.deskId ?? existing.deskId,
      startTime: body.startTime === undefined ? existing.startTime : parseInstant('startTime', body.startTime),
      endTime: body.endTime === undefined ? existing.endTime : parseInstant('endTime', body.endTime),
      type: body.type ?? existing.type,
    };
    const startMoved = booking.startTime.getTime() !== existing.startTime.getTime();
    const notice = this.onBehalf?.notice(caller, { ...booking, id }, 'changed');
    const desk = await this.writer.move(this.rules, { id: caller.user.id, admin: isAdmin(caller) }, id, booking, startMoved, notice);
    if (!desk) throw notFound('Reservation', id);
    return toReservationDto({ id, ...booking, roomId: desk.roomId, departmentId: desk.departmentId });
  }

  async delete(caller: Caller, id: string): Promise<void> {
    const existing = await this.visible(caller, id);
    this.ensureUserMayChange(caller, existing);
    if (!(await this.writer.cancel(id, isAdmin(caller), this.onBehalf?.notice(caller, existing, 'cancelled')))) throw notFound('Reservation', id);
  }

  /**
   * A USER sees their own reservations and those of the people they may book for; another's id
   * answers 404, as an unknown one does.
   */
  private async visible(caller: Caller, id: string): Promise<ReservationView> {
    const row = await this.reservations.findById(id);
    if (!row || !(await mayActFor(this.db, caller, row.userId))) throw notFound('Reservation', id);
    return row;
  }

  /** Past reservations are history, and fixed ones are an admin's assignment: users leave both alone. */
  private ensureUserMayChange(caller: Caller, existing: ReservationView): void {
    if (isAdmin(caller)) return;
    if (existing.type !== 'shared') throw forbidden('Fixed reservations are managed by admins');
    if (existing.endTime <= this.clock.now()) throw new AppError('CONFLICT', 'This reservation has already ended and can no longer be changed or cancelled');
  }
}
