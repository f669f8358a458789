/**
 * The HTTP and database steps of the container test (scripts/container/test.sh), run on the host
 * against a container: every wait has a deadline, every answer is checked, and a failure exits
 * non-zero with what was seen (docs/deployment.md#testing-the-image).
 *
 *   tsx scripts/container/smoke.ts wait-ready <baseUrl> <container> <seconds>
 *   tsx scripts/container/smoke.ts book <baseUrl> <email> <password>          the web app answers; prints {deskId, reservationId}
 *   tsx scripts/container/smoke.ts check <baseUrl> <email> <password> <reservationId> <deskId>
 *   tsx scripts/container/smoke.ts createdb <adminUrl> <name>                 prints the new database's URL
 *   tsx scripts/container/smoke.ts dropdb <adminUrl> <name>
 */
import { execFileSync } from 'node:child_process';
import postgres from 'postgres';

type Json = Record<string, unknown>;

function fail(message: string): never {
  console.error(`smoke: ${message}`);
  process.exit(1);
}

async function call(base: string, method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const response = await fetch(base + path, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  let json: Json;
  try {
    json = text ? (JSON.parse(text) as Json) : {};
  } catch {
    json = { text };
  }
  return { status: response.status, json };
}

async function expect(base: string, method: string, path: string, status: number, token?: string, body?: unknown): Promise<Json> {
  const answer = await call(base, method, path, token, body);
  if (answer.status !== status) fail(`${method} ${path} answered ${answer.status}, expected ${status}: ${JSON.stringify(answer.json)}`);
  return answer.json;
}

async function signIn(base: string, email: string, password: string): Promise<string> {
  const tokens = await expect(base, 'POST', '/api/auth/login', 200, undefined, { email, password });
  if (typeof tokens.accessToken !== 'string') fail('the sign-in answered no accessToken');
  return tokens.accessToken;
}

function containerRunning(name: string): boolean {
  try {
    return execFileSync('podman', ['inspect', '--format', '{{.State.Running}}', name], { encoding: 'utf8' }).trim() === 'true';
  } catch {
    return false;
  }
}

/** Readiness (docs/deployment.md#rolling-restarts): 200 once migrations ran and the database answers. */
async function waitReady(base: string, container: string, seconds: number): Promise<void> {
  const started = Date.now();
  const deadline = started + seconds * 1000;
  let last = 'no answer';
  while (Date.now() < deadline) {
    const answer = await call(base, 'GET', '/api/health/ready').catch((error: Error) => ({ status: 0, json: { error: error.message } }));
    if (answer.status === 200) {
      console.log(`ready after ${((Date.now() - started) / 1000).toFixed(1)} s`);
      return;
    }
    last = answer.status ? `${answer.status} ${JSON.stringify(answer.json)}` : 'no answer';
    if (!containerRunning(container)) fail(`container ${container} exited before it was ready (last: ${last})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  fail(`GET /api/health/ready did not answer 200 within ${seconds} s (last: ${last})`);
}

/** The image serves the built web app at / (dist/web) and its assets. */
async function webApp(base: string): Promise<void> {
  const page = await fetch(`${base}/`, { headers: { accept: 'text/html' }, signal: AbortSignal.timeout(15_000) });
  const html = await page.text();
  if (page.status !== 200 || !html.includes('<div id="root">')) fail(`GET / answered ${page.status}, not the web app`);
  const asset = /(?:src|href)="(\/assets\/[^"]+)"/.exec(html)?.[1];
  if (!asset) fail('the web app page names no asset under /assets/');
  const answer = await fetch(base + asset, { signal: AbortSignal.timeout(15_000) });
  if (answer.status !== 200) fail(`GET ${asset} answered ${answer.status}`);
}

/** An admin describes an office (department, room, desk) and books the desk for tomorrow. */
async function book(base: string, email: string, password: string): Promise<void> {
  await webApp(base);
  const token = await signIn(base, email, password);
  const department = await expect(base, 'POST', '/api/departments', 200, token, { location: 'Container', building: 'CI', floor: 1 });
  const room = await expect(base, 'POST', `/api/departments/${department.id}/rooms`, 200, token, { name: 'Podman' });
  const desk = await expect(base, 'POST', `/api/departments/${department.id}/rooms/${room.id}/desks`, 200, token, { name: 'D-01' });
  const day = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const reservation = await expect(base, 'POST', '/api/reservation', 200, token, {
    deskId: desk.id,
    startTime: `${day}T09:00:00Z`,
    endTime: `${day}T17:00:00Z`,
  });
  if (reservation.deskId !== desk.id) fail(`the reservation holds desk ${String(reservation.deskId)}, not ${String(desk.id)}`);
  // The public holidays come from the data the image keeps of date-holidays (the Containerfile leaves its other copies out).
  const holidays = await expect(base, 'POST', '/api/closures/holidays/preview', 200, token, {
    scope: 'EVERYWHERE',
    country: 'DE',
    language: 'en',
    years: [new Date().getUTCFullYear() + 1],
  });
  if (!JSON.stringify(holidays).includes('Good Friday')) fail(`the holiday preview has no Good Friday: ${JSON.stringify(holidays).slice(0, 300)}`);
  console.log(JSON.stringify({ deskId: desk.id, reservationId: reservation.id }));
}

async function check(base: string, email: string, password: string, reservationId: string, deskId: string): Promise<void> {
  const token = await signIn(base, email, password);
  const reservation = await expect(base, 'GET', `/api/reservation/${reservationId}`, 200, token);
  if (reservation.deskId !== deskId) fail(`reservation ${reservationId} holds desk ${String(reservation.deskId)}, not ${deskId}`);
  console.log(`reservation ${reservationId} of desk ${deskId} is still there`);
}

async function withAdmin(adminUrl: string, work: (sql: postgres.Sql) => Promise<void>): Promise<void> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    await work(sql);
  } finally {
    await sql.end();
  }
}

const [command, ...args] = process.argv.slice(2);
switch (command) {
  case 'wait-ready':
    await waitReady(args[0]!, args[1]!, Number(args[2] ?? 90));
    break;
  case 'book':
    await book(args[0]!, args[1]!, args[2]!);
    break;
  case 'check':
    await check(args[0]!, args[1]!, args[2]!, args[3]!, args[4]!);
    break;
  case 'createdb': {
    const [adminUrl, name] = args as [string, string];
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) fail(`bad database name ${name}`);
    await withAdmin(adminUrl, async (sql) => void (await sql.unsafe(`CREATE DATABASE "${name}"`)));
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    console.log(url.toString());
    break;
  }
  case 'dropdb': {
    const [adminUrl, name] = args as [string, string];
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) fail(`bad database name ${name}`);
    await withAdmin(adminUrl, async (sql) => void (await sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)));
    break;
  }
  default:
    fail(`unknown command ${String(command)}`);
}
