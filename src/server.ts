import { register } from 'node:module';

// Boots the service (src/main.ts) after replacing postgres.js's connection queue, which must
// happen before the driver is first imported (docs/benchmarks.md#a-queue-that-never-drained).
register('./db/postgres-queue.hooks.js', import.meta.url);
await import('./main.js');
