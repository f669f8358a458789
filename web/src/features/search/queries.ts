import { keepPreviousData } from '@tanstack/react-query';
import { $api } from '../../api/client.js';
import type { paths } from '../../api/schema.js';

const ROOMS_PER_PAGE = 50;

type RoomSearchBody = paths['/api/search/rooms']['post']['requestBody']['content']['application/json'];

/** Rooms with free desks for a search, page after page ("Show more"); the last results stay shown while a new search loads. */
export const useRoomSearch = (body: RoomSearchBody) =>
  $api.useInfiniteQuery(
    'post',
    '/api/search/rooms',
    { params: { query: { size: ROOMS_PER_PAGE } }, body },
    { pageParamName: 'page', initialPageParam: 0, getNextPageParam: (last) => (last.last ? undefined : last.number + 1), placeholderData: keepPreviousData },
  );
