import type { DisplayRow } from './displays.repository.js';
import type { DisplayDto } from './displays.schemas.js';

export const toDisplayDto = (row: DisplayRow): DisplayDto => ({ ...row, createdAt: row.createdAt.toISOString() });
