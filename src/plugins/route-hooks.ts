import type { RouteOptions } from 'fastify';
import { problemResponses } from '../shared/schemas.js';

type RouteHooks<T> = T | T[] | undefined;

/** A route's hooks of one kind with `hook` added after them (an onRoute hook marks a route this way). */
export const withHook = <T>(existing: RouteHooks<T>, hook: T): T[] => [
  ...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]),
  hook,
];

/** Documents the 429 problem answer on a route that may now give it (unless it already does). */
export function document429(route: RouteOptions): void {
  const response = route.schema?.response as Record<string, unknown> | undefined;
  if (response && !(429 in response)) response[429] = problemResponses(429)[429];
}
