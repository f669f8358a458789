import type { DelegateRow } from './delegates.repository.js';
import type { DelegateDto } from './delegates.schemas.js';

export const toDelegateDto = (row: DelegateRow): DelegateDto => ({ ...row, createdAt: row.createdAt.toISOString() });
