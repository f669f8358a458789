import { ensureServerBuilt } from './build-server.js';
import { ensureWebBuilt } from './build-web.js';

/**
 * `npm run build`, and so `npm start`: compiles the server (scripts/build-server.ts) and builds
 * the web app (scripts/build-web.ts), each only when its sources changed since its last build, in
 * one process (a restart with nothing changed costs one tsx start and two hashes, well under a second).
 */
const started = Date.now();
const server = ensureServerBuilt();
const web = await ensureWebBuilt();
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(
  server || web
    ? `built ${[server && 'the server (dist/)', web && 'the web app (dist/web)'].filter(Boolean).join(' and ')} in ${seconds} s`
    : 'server and web app are up to date (dist/)',
);
