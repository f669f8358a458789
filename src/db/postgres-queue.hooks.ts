import type { ResolveHook } from 'node:module';

/**
 * A module resolution hook (registered by src/server.ts before anything imports postgres.js) that
 * hands the driver our queue (postgres-queue.ts) where it imports its own `./queue.js`; see
 * docs/benchmarks.md#a-queue-that-never-drained for why.
 */
const DRIVER_QUEUE = /\/node_modules\/postgres\/src\/queue\.js$/;

export const resolve: ResolveHook = async (specifier, context, nextResolve) => {
  const resolved = await nextResolve(specifier, context);
  if (!DRIVER_QUEUE.test(resolved.url)) return resolved;
  // Resolved as if imported from here, so that under tsx (src/) the .ts file is found and compiled.
  return nextResolve('./postgres-queue.js', { ...context, parentURL: import.meta.url });
};
