import { expect } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './app.js';
import type { ServerProcess } from './server-process.js';

/** A steady HTTP load against a real server process: what was asked, when, and what came back. */

export interface Outcome {
  kind: 'read' | 'book';
  /** ms since the load started */
  start: number;
  end: number;
  /** 0: no answer (network error or the client's own timeout) */
  status: number;
  code?: string;
  retryAfter?: string | null;
  /** Booking answered 200: its id. */
  id?: string;
}

export async function call(
  server: ServerProcess,
  method: string,
  url: string,
  options: { token?: string; body?: unknown; timeoutMs?: number } = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  return fetch(`${server.base}${url}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
  });
}

async function created(server: ServerProcess, token: string, url: string, body: unknown): Promise<string> {
  const response = await call(server, 'POST', url, { token, body });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return (JSON.parse(text) as { id: string }).id;
}

/** Signs in as the admin of ADMIN_EMAIL/ADMIN_PASSWORD and creates one department, room and desk. */
export async function adminWithDesk(server: ServerProcess): Promise<{ token: string; deskId: string }> {
  const login = await call(server, 'POST', '/api/auth/login', { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
  expect(login.status).toBe(200);
  const token = ((await login.json()) as { accessToken: string }).accessToken;
  const departmentId = await created(server, token, '/api/departments', { location: 'Outage City', building: 'A', floor: 1 });
  const roomId = await created(server, token, `/api/departments/${departmentId}/rooms`, { name: 'Load' });
  const deskId = await created(server, token, `/api/departments/${departmentId}/rooms/${roomId}/desks`, { name: 'L-01' });
  return { token, deskId };
}

const HOUR = 3_600_000;
const FIRST_SLOT = Date.UTC(2031, 0, 6, 0, 0, 0);

/** Booking number `n` of one desk: the n-th hour from a fixed day, so no two bookings collide. */
export function slot(deskId: string, n: number): { deskId: string; startTime: string; endTime: string } {
  return { deskId, startTime: new Date(FIRST_SLOT + n * HOUR).toISOString(), endTime: new Date(FIRST_SLOT + (n + 1) * HOUR).toISOString() };
}

/** One request of the load, timed; never throws. */
export async function timed(t0: number, kind: Outcome['kind'], send: () => Promise<Response>): Promise<Outcome> {
  const start = Date.now() - t0;
  try {
    const response = await send();
    const text = await response.text();
    let body: { id?: string; code?: string } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      // not JSON: status alone tells
    }
    return {
      kind,
      start,
      end: Date.now() - t0,
      status: response.status,
      code: body.code,
      retryAfter: response.headers.get('retry-after'),
      id: kind === 'book' && response.status === 200 ? body.id : undefined,
    };
  } catch {
    return { kind, start, end: Date.now() - t0, status: 0 };
  }
}

/** Counts per status, for failure messages and the log. */
export function summary(outcomes: Outcome[]): string {
  const counts = new Map<string, number>();
  for (const outcome of outcomes) counts.set(`${outcome.kind} ${outcome.status}`, (counts.get(`${outcome.kind} ${outcome.status}`) ?? 0) + 1);
  return [...counts].map(([key, count]) => `${key}: ${count}`).join(', ');
}
