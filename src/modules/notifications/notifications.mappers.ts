import type { SubscriptionRow } from './notifications.repository.js';
import type { PushSubscriptionDto } from './notifications.schemas.js';

export const toSubscriptionDto = (row: SubscriptionRow): PushSubscriptionDto => ({
  id: row.id,
  endpoint: row.endpoint,
  createdAt: row.createdAt.toISOString(),
});
