import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problemResponses } from '../../shared/schemas.js';
import { Statistics } from './stats.schemas.js';
import type { StatsService } from './stats.service.js';

export const statsRoutes: FastifyPluginAsyncTypebox<{ stats: StatsService }> = async (app, { stats }) => {
  app.get(
    '/api/stats',
    {
      config: { role: 'ADMIN', expensive: true },
      schema: {
        tags: ['Stats'],
        summary: 'Statistics',
        description:
          'Users get 403. Never stale: the answer includes every write acknowledged before the request began, through any server process. Figures are kept while no counted row is added, removed or (reservations, reports) changed and the UTC day is the same; otherwise they are computed anew. At most EXPENSIVE_CONCURRENCY_PER_USER requests of one user run at once (429 beyond). Totals are exact counts of the rows. Days are UTC days; "today" is the current UTC date, and each `date` is that day\'s 00:00:00Z. ' +
          '`dailyCreatedReservationsLast30Days` and `dailyCreatedReportsLast30Days`: the 29 days before today and today (30 entries), counting by creation time within [00:00Z, next 00:00Z). ' +
          '`dailyReservationsLast15DaysAndNext15Days`: today−15 to today+15 (31 entries), counting the reservations whose half-open [startTime, endTime) overlaps the day ' +
          '(a reservation spanning several days counts on each; one ending exactly at 00:00Z does not count for the day that starts then). ' +
          'Every series is oldest first and lists days with no rows as 0.',
        response: { 200: Statistics, ...problemResponses() },
      },
    },
    async () => stats.statistics(),
  );
};
