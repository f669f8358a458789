import type { Database } from '../../db/client.js';
import type { Clock } from '../../shared/clock.js';

export interface ReservationRules {
  /** Longest reservation a USER may make. */
  maxLengthMs: number;
  /** How far ahead of now a USER may start one. */
  horizonMs: number;
  /** One user never holds two overlapping reservations. */
  onePerUser: boolean;
}

// Placeholder: being written.
export class ReservationsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly rules: ReservationRules,
  ) {}
}
