import type { Database } from '../../db/client.js';
import type { Clock } from '../../shared/clock.js';

// Placeholder: being written.
export class DepartmentImagesService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly maxPixels: number,
  ) {}
}
