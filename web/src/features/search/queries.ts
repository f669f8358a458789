import { keepPreviousData, useQueries } from '@tanstack/react-query';
import { $api, api, call } from '../../api/client.js';
import type { Equipment } from '../../api/types.js';
import type { paths } from '../../api/schema.js';

const ROOMS_PER_PAGE = 50;
/** The largest page the service gives (docs/api.md#paging). */
const LARGEST_PAGE = 1000;

type RoomSearchBody = paths['/api/search/rooms']['post']['requestBody']['content']['application/json'];

/** Rooms with free desks for a search, page after page ("Show more"); the last results stay shown while a new search loads. */
export const useRoomSearch = (body: RoomSearchBody) =>
  $api.useInfiniteQuery(
    'post',
    '/api/search/rooms',
    { params: { query: { size: ROOMS_PER_PAGE } }, body },
    { pageParamName: 'page', initialPageParam: 0, getNextPageParam: (last) => (last.last ? undefined : last.number + 1), placeholderData: keepPreviousData },
  );

const DESK_EQUIPMENT = '/api/departments/{departmentId}/desk-equipment';

/** Every desk of an office with its equipment, all pages of it, by desk id (docs/api.md#desk-equipment). */
async function readDeskEquipment(departmentId: string): Promise<Map<string, Equipment[]>> {
  const byDesk = new Map<string, Equipment[]>();
  for (let page = 0; ; page++) {
    const body = await call(api.GET(DESK_EQUIPMENT, { params: { path: { departmentId }, query: { page, size: LARGEST_PAGE } } }));
    for (const item of body.content) byDesk.set(item.deskId, item.equipment);
    if (body.last) return byDesk;
  }
}

/**
 * What the desks of these offices have, by desk id (docs/behaviour.md#what-people-see-of-a-desk):
 * one request per office, kept a minute. A desk of an office still being read (or whose reading
 * failed) is missing: the results are shown without what it has. Keyed by the path like every
 * read, so inventory changes make it stale.
 */
export function useDeskEquipment(departmentIds: readonly string[]): Map<string, Equipment[]> {
  const ids = [...new Set(departmentIds)].sort();
  return useQueries({
    queries: ids.map((departmentId) => ({
      queryKey: ['get', DESK_EQUIPMENT, { params: { path: { departmentId } } }],
      queryFn: () => readDeskEquipment(departmentId),
      staleTime: 60_000,
    })),
    combine: (results) => new Map(results.flatMap((result) => (result.data ? [...result.data] : []))),
  });
}
