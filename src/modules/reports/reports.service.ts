import type { Database } from '../../db/client.js';
import type { Clock } from '../../shared/clock.js';

// Placeholder: being written.
export class ReportsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}
}
