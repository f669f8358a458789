import { AppError, invalid, type BrokenRule } from '../../shared/errors.js';
import type { BookableDesk } from './reservations.repository.js';

/**
 * The booking rules of docs/behaviour.md#reservations that bind a USER, as plain functions: single
 * reservations (reservations.service.ts) and recurring series (modules/series) apply the same ones.
 */
export interface ReservationRules {
  /** Longest reservation a USER may make. */
  maxLengthMs: number;
  /** Shortest reservation a USER may make (0: any). */
  minLengthMs: number;
  /** Most reservations not yet ended a USER may hold (RESERVATION_MAX_FUTURE). */
  maxFuture: number;
  /** How far ahead of now a USER may start one. */
  horizonMs: number;
  /** One user never holds two overlapping reservations. */
  onePerUser: boolean;
}

/** A USER's start may lie this little in the past (a form filled in "now", clocks that differ). */
export const START_GRACE_MS = 5 * 60_000;

export function describeDuration(ms: number): string {
  const hours = ms / 3_600_000;
  if (hours >= 48 && Number.isInteger(hours / 24)) return `${hours / 24} days`;
  if (Number.isInteger(hours)) return `${hours} hours`;
  return `${Math.round(ms / 60_000)} minutes`;
}

/** A USER rule a range breaks: the field it is about, the words of `detail`, and the rule clients word themselves (docs/errors.md). */
export interface RuleBreach {
  field: 'startTime' | 'endTime';
  message: string;
  rule: BrokenRule;
}

/** 400 RESERVATION_NOT_ALLOWED with the field and the rule broken (`rule`, with the occurrence's date for a series). */
export const ruleBroken = (breach: RuleBreach, date?: string) => {
  const message = date === undefined ? breach.message : `${breach.message} (the occurrence on ${date})`;
  return new AppError('RESERVATION_NOT_ALLOWED', `${breach.field} ${message}`, {
    errors: [{ field: breach.field, message }],
    rule: date === undefined ? breach.rule : { ...breach.rule, date },
  });
};

const seconds = (ms: number) => Math.floor(ms / 1000);

/** Which USER rule a range breaks, or undefined when it keeps them all (start < end is checked apart). */
export function userRuleBroken(rules: ReservationRules, now: Date, startTime: Date, endTime: Date, startMoved = true): RuleBreach | undefined {
  const nowMs = now.getTime();
  if (endTime.getTime() <= nowMs) return { field: 'endTime', message: 'lies in the past', rule: { name: 'END_IN_PAST' } };
  if (startMoved && startTime.getTime() < nowMs - START_GRACE_MS) return { field: 'startTime', message: 'lies in the past', rule: { name: 'START_IN_PAST' } };
  if (endTime.getTime() - startTime.getTime() > rules.maxLengthMs) {
    return {
      field: 'endTime',
      message: `makes the reservation longer than the ${describeDuration(rules.maxLengthMs)} allowed`,
      rule: { name: 'TOO_LONG', seconds: seconds(rules.maxLengthMs) },
    };
  }
  // Leaving a started reservation early (its end moved, not its start) may make it shorter.
  const leavingEarly = !startMoved && startTime.getTime() <= nowMs;
  if (endTime.getTime() - startTime.getTime() < rules.minLengthMs && !leavingEarly) {
    return {
      field: 'endTime',
      message: `makes the reservation shorter than the ${describeDuration(rules.minLengthMs)} required`,
      rule: { name: 'TOO_SHORT', seconds: seconds(rules.minLengthMs) },
    };
  }
  if (startTime.getTime() > nowMs + rules.horizonMs) {
    return {
      field: 'startTime',
      message: `lies more than ${describeDuration(rules.horizonMs)} ahead`,
      rule: { name: 'TOO_FAR_AHEAD', seconds: seconds(rules.horizonMs) },
    };
  }
  return undefined;
}

/**
 * RESERVATION_MAX_FUTURE (docs/behaviour.md#reservations): `held` reservations not yet ended plus
 * `adding` new ones may not exceed the cap; 409 with the limit, what is held and what was asked.
 */
export function ensureUnderFutureCap(rules: ReservationRules, held: number, adding: number): void {
  if (held + adding <= rules.maxFuture) return;
  throw new AppError(
    'RESERVATION_LIMIT_REACHED',
    `You may hold at most ${rules.maxFuture} reservations that have not ended; you hold ${held}${adding > 1 ? ` and asked for ${adding} more` : ''}`,
    { limit: { name: 'RESERVATION_MAX_FUTURE', max: rules.maxFuture, current: held, requested: adding } },
  );
}

/** An unknown desk is 400; a FIXED desk or one in an unavailable room is 409 for a USER (admins assign them). */
export function ensureDeskBookable(desk: BookableDesk | undefined, admin: boolean): BookableDesk {
  if (!desk) throw invalid('deskId', 'no such desk');
  if (!admin && desk.type === 'FIXED') throw new AppError('DESK_NOT_BOOKABLE', 'This is a fixed desk, assigned by an admin; choose a flexible desk');
  if (!admin && !desk.roomAvailable) throw new AppError('DESK_NOT_BOOKABLE', 'The room of this desk is not available for booking');
  return desk;
}
