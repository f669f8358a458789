import type { OccurrenceConflict } from '../../shared/errors.js';
import { localDate, weekdayName } from './series.recurrence.js';
import type { OccurrenceRow, SeriesRow } from './series.repository.js';
import type { SeriesDto, SeriesSummaryDto } from './series.schemas.js';

type Core = Omit<SeriesDto, 'occurrences'>;

export const toSeriesCore = (row: SeriesRow): Core => ({
  id: row.id,
  userId: row.userId,
  deskId: row.deskId,
  roomId: row.roomId,
  departmentId: row.departmentId,
  type: row.type,
  timeZone: row.timeZone,
  rule: {
    frequency: row.frequency,
    interval: row.interval,
    weekdays: row.weekdays.map(weekdayName),
    until: row.until ?? null,
    count: row.count ?? null,
  },
  startTime: row.firstStart.toISOString(),
  endTime: row.firstEnd.toISOString(),
  createdAt: row.createdAt.toISOString(),
});

/** `timeZone` undefined: the caller supplies the date. */
export const toOccurrenceDto = (row: OccurrenceRow, timeZone: string | undefined) => ({
  reservationId: row.id,
  date: timeZone === undefined ? '' : localDate(row.startTime, timeZone),
  startTime: row.startTime.toISOString(),
  endTime: row.endTime.toISOString(),
});

export const toSeriesDto = (row: SeriesRow, occurrences: OccurrenceRow[]): SeriesDto => ({
  ...toSeriesCore(row),
  occurrences: occurrences.map((occurrence) => toOccurrenceDto(occurrence, row.timeZone)),
});

export const toSeriesSummaryDto = (row: SeriesRow & { upcoming: number; nextStartTime: Date | null }): SeriesSummaryDto => ({
  ...toSeriesCore(row),
  upcoming: row.upcoming,
  nextStartTime: row.nextStartTime?.toISOString() ?? null,
});

export const describeConflicts = (conflicts: OccurrenceConflict[], total: number): string => {
  const shown = conflicts
    .slice(0, 5)
    .map(
      (conflict) =>
        `${conflict.date} (${
          conflict.reason === 'DESK_RESERVED'
            ? 'desk reserved'
            : conflict.reason === 'CLOSED'
              ? `closed: ${conflict.closure?.reason ?? ''}`
              : conflict.reason === 'POLICY'
                ? (conflict.message ?? 'a booking policy refuses it')
                : 'you already have a reservation then'
        })`,
    );
  const more = conflicts.length > shown.length ? ` and ${conflicts.length - shown.length} more` : '';
  const why = conflicts.some((conflict) => conflict.reason === 'POLICY') ? 'cannot be booked' : 'collide with other reservations or closed days';
  return `${conflicts.length} of ${total} occurrences ${why}: ${shown.join(', ')}${more}`;
};
