import { MutationCache, QueryClient, type Query } from '@tanstack/react-query';

/**
 * The one cache of everything read from the API (TanStack Query). Each resource has one entry per
 * request, keyed [method, path, init] by $api (api/client.ts). A mutation names in its `meta` the
 * paths whose entries it makes stale; they are invalidated once, here, after it succeeded.
 */

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: {
      /** Path prefixes ('/api/departments' covers every inventory read) of the entries a success makes stale. */
      invalidates?: readonly string[];
    };
  }
}

/** Whether a query reads one of these paths (or anything below them). */
export const readsAny = (prefixes: readonly string[]) => (query: Query) => {
  const path = query.queryKey[1];
  return typeof path === 'string' && prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
};

export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    defaultOptions: {
      // Failures are shown at once with a "Try again"; a page is read afresh each time it is opened
      // (cached data is shown meanwhile), not each time the window gets focus.
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
    mutationCache: new MutationCache({
      onSuccess: (_data, _variables, _context, mutation) => {
        const prefixes = mutation.meta?.invalidates;
        if (prefixes?.length) return client.invalidateQueries({ predicate: readsAny(prefixes) });
      },
    }),
  });
  return client;
}

export const queryClient = createQueryClient();

/** Path prefixes for `meta.invalidates`: what each kind of change makes stale. */
/** What a booking makes stale, wherever it is made: lists, free desks, allowance, who's in, near my team. */
const RESERVATIONS = [
  '/api/reservation',
  '/api/self/approvals',
  '/api/approvals',
  '/api/search/rooms',
  '/api/stats',
  '/api/departments/{departmentId}/floor-plan/availability',
  '/api/attendance',
  '/api/desks',
  '/api/self/allowance',
  '/api/people/in',
  '/api/people/week',
  '/api/people/desks',
  '/api/self/near-my-team',
];

export const STALE_AFTER = {
  /** Departments, rooms, desks, equipment, department pictures; and so the free desks. */
  inventory: ['/api/departments', '/api/search/rooms'],
  /** A forced delete also removes reservations, and reports lose their department, room and desk. */
  inventoryTree: ['/api/departments', '/api/search/rooms', '/api/reservation', '/api/report', '/api/report-statuses', '/api/search/reports', '/api/stats'],
  reservations: RESERVATIONS,
  /** Booking policies (docs/policies.md): what the allowance and the rules pages show. */
  policies: ['/api/admin/policies/rules', '/api/admin/policies/areas', '/api/self/allowance'],
  /** Check-in, walk-in and office settings (docs/behaviour.md#attendance). */
  attendance: ['/api/reservation', '/api/attendance', '/api/desks', '/api/search/rooms', '/api/stats', '/api/departments'],
  reports: ['/api/report', '/api/report-statuses', '/api/search/reports', '/api/stats'],
  /** A closure cancels reservations and closes days (docs/policies.md#closures-and-holidays). */
  closures: [
    '/api/closures',
    '/api/reservation',
    '/api/search/rooms',
    '/api/stats',
    '/api/departments/{departmentId}/floor-plan/availability',
    '/api/attendance',
  ],
  /** A decision confirms or cancels a reservation (docs/policies.md#approvals). */
  approvals: ['/api/approvals', '/api/self/approvals', '/api/reservation', '/api/search/rooms', '/api/stats', '/api/attendance'],
  approvalRequirements: ['/api/approval-requirements'],
  users: ['/api/users', '/api/self', '/api/stats'],
  /** Teams and their members (docs/policies.md#teams): who one may book for follows them. */
  teams: ['/api/teams', '/api/self/teams', '/api/self/book-for'],
  delegates: ['/api/self/delegates'],
  /** Favourite desks and the home office (docs/favourites.md). */
  favourites: ['/api/self/favourite-desks'],
  bookingDefaults: ['/api/self/booking-defaults'],
  /** "Book my usual" books reservations: everything a booking makes stale, and its own preview (docs/favourites.md#book-my-usual). */
  usual: [...RESERVATIONS, '/api/self/usual'],
  /** The organisation's settings and a person's switches change what the people views show (docs/people.md). */
  privacy: ['/api/organisation/settings', '/api/self/privacy', '/api/people/in', '/api/people/week', '/api/people/desks', '/api/attendance'],
  starred: ['/api/self/starred-people', '/api/people/week'],
  displays: ['/api/departments/{departmentId}/displays'],
  sessions: ['/api/users', '/api/sessions'],
  /** A retried message: the admins' outbox list and its counts. */
  outbox: ['/api/admin/outbox'],
} as const satisfies Record<string, readonly string[]>;
