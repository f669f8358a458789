import { Agent, request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type autocannon from 'autocannon';
import { CONNECTIONS, type Measurement } from './measure.js';
import type { Load } from './scenarios.js';

interface PlainRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * The requests a scenario's autocannon load would send, one connection after the other: each
 * "connection" gets its headers from setupClient, each request its body from setupRequest.
 */
function requestSource(load: Load): () => PlainRequest {
  const clientHeaders = Array.from({ length: CONNECTIONS }, () => {
    let headers: Record<string, string> = {};
    load.setupClient?.({ setHeaders: (given) => (headers = given) });
    return headers;
  });
  const template = load.requests?.[0] ?? {};
  let next = 0;
  return () => {
    const connection = next++ % CONNECTIONS;
    let request: autocannon.Request = {
      method: template.method ?? load.method ?? 'GET',
      path: template.path ?? '/',
      headers: { ...load.headers, ...clientHeaders[connection], ...template.headers },
      body: template.body ?? load.body,
    };
    if (template.setupRequest) request = template.setupRequest(request, {});
    return { method: request.method!, path: request.path!, headers: request.headers ?? {}, body: request.body };
  };
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

/**
 * Latency at a fixed rate below saturation: an open-loop generator that starts one request every
 * 1/rate seconds, evenly spaced, over at most CONNECTIONS keep-alive connections. autocannon's
 * rate limit is not used here: its connections send their share of each second in one burst at
 * the same moment (a queue of 50 every second), and its latency correction for rate-limited runs
 * takes the expected interval in the wrong unit (1 ms for 2 requests a second). Latency counts from
 * the moment a request was due, so a server that falls behind is not flattered (no coordinated omission).
 */
export async function measureAtRate(options: { url: string; load: Load; rate: number; seconds: number; expected: readonly number[] }): Promise<Measurement> {
  const base = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const nextRequest = requestSource(options.load);
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let socketErrors = 0;

  const send = (due: number) =>
    new Promise<void>((resolve) => {
      let settled = false;
      const settle = (status?: number) => {
        if (settled) return;
        settled = true;
        if (status === undefined) {
          socketErrors++;
        } else {
          latencies.push(performance.now() - due);
          statuses[status] = (statuses[status] ?? 0) + 1;
        }
        resolve();
      };
      const { method, path, headers, body } = nextRequest();
      const sized = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
      const outgoing = httpRequest({ agent, hostname: base.hostname, port: base.port, method, path, headers: sized, timeout: 10_000 }, (response) => {
        response.resume();
        response.once('end', () => settle(response.statusCode));
        response.once('error', () => settle());
      });
      outgoing.once('timeout', () => outgoing.destroy(new Error('timed out')));
      outgoing.once('error', () => settle());
      outgoing.end(body);
    });

  const interval = 1000 / options.rate;
  const total = Math.round(options.rate * options.seconds);
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let n = 0; n < total; n++) {
    const due = started + n * interval;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    inFlight.push(send(due));
  }
  await Promise.all(inFlight);
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();

  latencies.sort((a, b) => a - b);
  const responses = latencies.length;
  const unexpected = Object.entries(statuses).reduce((sum, [code, count]) => (options.expected.includes(Number(code)) ? sum : sum + count), 0);
  return {
    responses,
    seconds,
    perSecond: responses / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    statuses,
    errors: unexpected + socketErrors,
    serverErrors: Object.entries(statuses).reduce((sum, [code, count]) => (Number(code) >= 500 ? sum + count : sum), 0),
  };
}
