import { connect } from 'node:net';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';

/** Building blocks of the OpenAPI-driven fuzz test (test/http/fuzz.test.ts). */

/** A small seeded PRNG (mulberry32): the same seed gives the same cases on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Up to `count` items of `items` in a seeded order (the first `keep` always stay, in order). */
export function sample<T>(items: T[], count: number, random: () => number, keep = 0): T[] {
  const head = items.slice(0, keep);
  const rest = items.slice(keep);
  for (let i = rest.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [rest[i], rest[j]] = [rest[j]!, rest[i]!];
  }
  return [...head, ...rest].slice(0, Math.max(count, 0));
}

export interface JsonSchema {
  type?: string;
  format?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: JsonSchema;
}

export interface Operation {
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

export interface DocumentedOperation {
  /** e.g. `PUT /api/users/{id}` */
  key: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  path: string;
  operation: Operation;
  pathParameters: Parameter[];
  queryParameters: Parameter[];
  bodySchema?: JsonSchema;
  /** Reachable without a token (`security: []`). */
  public: boolean;
}

export function documentedOperations(document: OpenApiDocument): DocumentedOperation[] {
  const operations: DocumentedOperation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = operation.parameters ?? [];
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase() as DocumentedOperation['method'],
        path,
        operation,
        pathParameters: parameters.filter((parameter) => parameter.in === 'path'),
        queryParameters: parameters.filter((parameter) => parameter.in === 'query'),
        bodySchema: operation.requestBody?.content['application/json']?.schema,
        public: Array.isArray(operation.security) && operation.security.length === 0,
      });
    }
  }
  return operations;
}

/** Every member path of an object schema, depth first (`['reservation', 'free', 'start']`). */
export function memberPaths(schema: JsonSchema, prefix: string[] = []): { path: string[]; schema: JsonSchema }[] {
  const found: { path: string[]; schema: JsonSchema }[] = [];
  for (const [name, member] of Object.entries(schema.properties ?? {})) {
    const path = [...prefix, name];
    found.push({ path, schema: member });
    if (member.type === 'object') found.push(...memberPaths(member, path));
  }
  return found;
}

/** A copy of `value` with the member at `path` set (missing objects on the way are created). */
export function withMember(value: unknown, path: string[], member: unknown): Record<string, unknown> {
  const copy = structuredClone(value ?? {}) as Record<string, unknown>;
  let cursor = copy;
  for (const name of path.slice(0, -1)) {
    const next = cursor[name];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) cursor[name] = {};
    cursor = cursor[name] as Record<string, unknown>;
  }
  cursor[path[path.length - 1]!] = member;
  return copy;
}

/**
 * Text that goes into a JSON body as it is, not as a JSON value: number literals JSON.stringify
 * cannot write (`1e309`, `-0`) and bytes that are not UTF-8.
 */
export class Raw {
  constructor(readonly bytes: Buffer) {}
  static text(text: string): Raw {
    return new Raw(Buffer.from(text, 'utf8'));
  }
}

/** The JSON text of `value` with every Raw inserted verbatim. */
export function encodeJson(value: unknown): Buffer {
  const raws: Raw[] = [];
  const text = JSON.stringify(value, (_key, member: unknown) => {
    if (member instanceof Raw) {
      raws.push(member);
      return `\u0000raw${raws.length - 1}\u0000`;
    }
    return member;
  });
  const parts: Buffer[] = [];
  const marker = /"\\u0000raw(\d+)\\u0000"/g;
  let last = 0;
  for (const match of text.matchAll(marker)) {
    parts.push(Buffer.from(text.slice(last, match.index), 'utf8'), raws[Number(match[1])]!.bytes);
    last = match.index + match[0].length;
  }
  parts.push(Buffer.from(text.slice(last), 'utf8'));
  return Buffer.concat(parts);
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The body of a `transfer-encoding: chunked` answer, joined. */
function unchunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', offset);
    if (lineEnd < 0) break;
    const size = parseInt(bytes.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!size) break;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/**
 * One HTTP/1.1 exchange over a socket, the request line sent byte for byte: unlike inject, no URL
 * normalisation (`/assets/../x`, `%2e%2e`) happens on the way.
 */
export function rawRequest(port: number, head: string, body?: Buffer, timeoutMs = 20_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms to ${head.split('\r\n')[0]}`));
    }, timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const bytes = Buffer.concat(chunks);
      const split = bytes.indexOf('\r\n\r\n');
      const [statusLine, ...headerLines] = bytes
        .subarray(0, split < 0 ? bytes.length : split)
        .toString('latin1')
        .split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const rest = split < 0 ? Buffer.alloc(0) : bytes.subarray(split + 4);
      const content = headers['transfer-encoding'] === 'chunked' ? unchunk(rest) : rest;
      resolve({ status: Number(statusLine?.split(' ')[1] ?? 0), headers, body: content.toString('utf8') });
    });
    socket.write(body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : head);
  });
}

/**
 * Every row of every table of the database, as text, keyed by `schema.table`. Table names come
 * from the catalogue, so a table added later is covered without touching the test.
 */
export async function tableContents(db: Database): Promise<Map<string, string[]>> {
  const tables = await queryRows<{ name: string }>(
    db,
    sql`select quote_ident(table_schema) || '.' || quote_ident(table_name) as name from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1`,
  );
  const contents = new Map<string, string[]>();
  for (const { name } of tables) {
    const rows = await queryRows<{ row: string }>(db, sql.raw(`select t::text as row from ${name} t`));
    contents.set(name, rows.map((row) => row.row).sort());
  }
  return contents;
}

/** What differs between two tableContents snapshots, compactly (rows cut to 160 characters). */
export function contentChanges(before: Map<string, string[]>, after: Map<string, string[]>): string[] {
  const changes: string[] = [];
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const was = before.get(name) ?? [];
    const is = after.get(name) ?? [];
    const removed = was.filter((row) => !is.includes(row));
    const added = is.filter((row) => !was.includes(row));
    if (was.length !== is.length || removed.length > 0 || added.length > 0) {
      changes.push(`${name}: ${was.length} -> ${is.length} rows`);
      for (const row of removed.slice(0, 5)) changes.push(`  - ${row.slice(0, 160)}`);
      for (const row of added.slice(0, 5)) changes.push(`  + ${row.slice(0, 160)}`);
    }
  }
  return changes;
}
