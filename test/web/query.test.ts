import { MutationObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { createQueryClient, STALE_AFTER } from '../../web/src/api/query.js';

/** Each mutation says what it makes stale; the query client invalidates exactly that, once. */
describe('invalidation after a mutation', () => {
  const KEYS = {
    departments: ['get', '/api/departments', { params: { query: { page: 0, size: 20 } } }],
    rooms: ['get', '/api/departments/{departmentId}/rooms', { params: { path: { departmentId: 'd1' } } }],
    freeDesks: ['post', '/api/search/rooms', { body: {} }],
    reservations: ['get', '/api/reservation', {}],
    self: ['get', '/api/self'],
    settings: ['get', '/api/settings'],
  } as const;

  async function afterMutation(meta?: { invalidates?: readonly string[] }) {
    const client = createQueryClient();
    for (const key of Object.values(KEYS)) client.setQueryData(key, { cached: true });
    await new MutationObserver(client, { mutationFn: async () => 'done', meta }).mutate();
    return Object.fromEntries(Object.entries(KEYS).map(([name, key]) => [name, client.getQueryState(key)?.isInvalidated]));
  }

  it('makes stale what lies under the named paths, and nothing else', async () => {
    expect(await afterMutation({ invalidates: STALE_AFTER.inventory })).toEqual({
      departments: true,
      rooms: true,
      freeDesks: true,
      reservations: false,
      self: false,
      settings: false,
    });
    expect(await afterMutation({ invalidates: STALE_AFTER.reservations })).toMatchObject({ departments: false, freeDesks: true, reservations: true });
  });

  it('does not take a path for a prefix of a longer name', async () => {
    expect(await afterMutation({ invalidates: ['/api/dep'] })).toMatchObject({ departments: false, rooms: false });
  });

  it('leaves everything alone for a mutation that names nothing', async () => {
    expect(Object.values(await afterMutation())).toEqual([false, false, false, false, false, false]);
  });
});
