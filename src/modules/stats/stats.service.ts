import type { Database } from '../../db/client.js';
import type { Clock } from '../../shared/clock.js';

// Placeholder: being written.
export class StatsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}
}
