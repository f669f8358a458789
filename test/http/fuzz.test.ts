import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Ajv, ValidateFunction } from 'ajv';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAjv } from '../../src/plugins/validation.js';
import { createTestApp, ADMIN_PASSWORD, type TestApp, type TokenPairBody, type UserBody } from '../helpers/app.js';
import { insertDesk, insertDeskInNewRoom, insertEquipment, insertReport, insertReservation } from '../helpers/fixtures.js';
import {
  Raw,
  contentChanges,
  documentedOperations,
  encodeJson,
  memberPaths,
  rawRequest,
  sample,
  seededRandom,
  tableContents,
  withMember,
  type DocumentedOperation,
  type JsonSchema,
  type OpenApiDocument,
  type Parameter,
} from '../helpers/fuzz.js';

/**
 * Fuzzing every operation of the service's own OpenAPI document with malformed input, as a
 * USER, as an ADMIN and (a sample) without a token. Deterministic: FUZZ_SEED picks the cases
 * (the default is fixed), and the number of cases per operation is bounded so that the file runs
 * in well under a minute per database (FUZZ_CASES_PER_OPERATION raises the bound).
 *
 * What must hold (docs/behaviour.md, HTTP): no 5xx; every 4xx is problem+json with a `code`; a
 * malformed request changes nothing in the database; nothing pollutes Object.prototype; the
 * service answers normally afterwards.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_250_917);
// FUZZ_CASES_PER_OPERATION=1000 sends every case (minutes, not for every run).
const ADMIN_CASES_PER_OPERATION = Number(process.env.FUZZ_CASES_PER_OPERATION ?? 20);
const USER_CASES_PER_OPERATION = Number(process.env.FUZZ_CASES_PER_OPERATION ?? 12);
const ANONYMOUS_CASES_PER_OPERATION = 2;

type Role = 'ADMIN' | 'USER' | 'anonymous';
/** malformed: must be refused (4xx) and change nothing; edge: legal values at the limits (no 5xx, data may change). */
type Phase = 'malformed' | 'edge';

interface FuzzCase {
  operation: string;
  label: string;
  phase: Phase;
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** Built when sent: the megabyte bodies are not kept for every case. */
  payload?: () => Buffer;
  /** Sent over a socket: inject would resolve `%2e%2e` in the path before the router sees it. */
  viaSocket?: boolean;
}

/** A query value sent as written (already percent-encoded), not encoded again. */
const RAW = 'raw:';
const GHOST_ID = '0f0e0d0c-0b0a-4909-8807-060504030201';
const DEEP = 10_000;
const deepArray = Raw.text(`${'['.repeat(DEEP)}${']'.repeat(DEEP)}`);
const deepObject = Raw.text(`${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`);
const INVALID_UTF8 = new Raw(Buffer.from([0x46, 0x75, 0x7a, 0x7a, 0xff, 0xfe, 0xc3, 0x28]));
const wrap = (raw: Raw) => new Raw(Buffer.concat([Buffer.from('"'), raw.bytes, Buffer.from('"')]));

/** Path parameter values that are not ids; each is sent percent-encoded as written here. */
/** find-my-way's default limit on a path parameter; past it the router used to answer ROUTE_NOT_FOUND. */
const ROUTER_PARAM_LIMIT = 100;
const BAD_PATH_VALUES: { label: string; value: string }[] = [
  { label: 'not a UUID', value: 'not-a-uuid' },
  { label: 'overlong', value: 'a'.repeat(5000) },
  { label: 'at the router limit', value: '1'.repeat(ROUTER_PARAM_LIMIT) },
  { label: 'past the router limit', value: '1'.repeat(ROUTER_PARAM_LIMIT + 1) },
  { label: '300 digits', value: '1'.repeat(300) },
  { label: 'overlong UUID-ish', value: `${GHOST_ID}${'0'.repeat(90)}` },
  { label: '%00', value: '%00' },
  { label: 'UUID then %00', value: `${GHOST_ID}%00` },
  { label: '..%2f', value: '..%2f..%2fetc%2fpasswd' },
  { label: '%2e%2e', value: '%2e%2e' },
  { label: 'unicode', value: encodeURIComponent('ünï😀cödé') },
  { label: 'bad percent-encoding', value: '%E0%A4%A' },
  { label: 'overlong UTF-8 encoding', value: '%C0%AE%C0%AE' },
  { label: 'UUID without hyphens', value: GHOST_ID.replaceAll('-', '') },
  { label: 'UUID in braces', value: `%7B${GHOST_ID}%7D` },
  { label: 'SQL', value: encodeURIComponent("' or 1=1 --") },
  { label: '__proto__', value: '__proto__' },
  { label: 'urn:uuid: prefix', value: `urn:uuid:${GHOST_ID}` },
];
/** Legal ids that name nothing: the operation must answer 4xx (mostly 404), never 5xx. */
const EDGE_PATH_VALUES: { label: string; value: string }[] = [
  { label: 'upper-case unknown UUID', value: GHOST_ID.toUpperCase() },
  { label: 'nil UUID', value: '00000000-0000-0000-0000-000000000000' },
];

function queryValues(parameter: Parameter): { label: string; values: string[]; phase: Phase }[] {
  const { schema, name } = parameter;
  const bad = (label: string, ...values: string[]) => ({ label: `${name}=${label}`, values, phase: 'malformed' as Phase });
  const edge = (label: string, ...values: string[]) => ({ label: `${name}=${label}`, values, phase: 'edge' as Phase });
  const cases: { label: string; values: string[]; phase: Phase }[] = [];
  if (name === 'sort' || name === 'pageable[sort]') {
    cases.push(
      bad('__proto__', '__proto__'),
      bad('constructor,desc', 'constructor,desc'),
      bad('SQL', 'id;drop table users'),
      bad('11 values', ...Array.from({ length: 11 }, () => 'id')),
    );
    cases.push(bad('201 characters', 'i'.repeat(201)), bad('NUL', 'id\u0000'));
  } else if (name === 'pageable') {
    cases.push(
      bad('{"__proto__":…}', '{"__proto__":{"role":"ADMIN"},"page":0}'),
      bad('constructor.prototype', '{"constructor":{"prototype":{"role":"ADMIN"}}}'),
    );
    cases.push(bad('not JSON', '{page:'), bad('[]', '[]'), bad('null', 'null'), bad('page -1', '{"page":-1}'), bad('page 1e309', '{"page":1e309}'));
    cases.push(
      bad('size "a"', '{"size":"a"}'),
      bad('sort 7', '{"sort":7}'),
      bad('4001 characters', `{"sort":["${'i'.repeat(3990)}"]}`),
      bad('deep', `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`),
    );
    cases.push(bad('sort __proto__', '{"sort":["__proto__"]}'), edge('page 2^53+1', '{"page":9007199254740993}'), edge('size 1e308', '{"size":1e308}'));
  } else if (schema.type === 'integer' || schema.type === 'number') {
    cases.push(bad('string', 'abc'), bad('1.5', '1.5'), bad('1e309', '1e309'), bad('array', '1', '2'), bad('empty', ''));
    cases.push(bad('huge', '99999999999999999999999'), bad('-1', '-1'), bad('NUL', '1\u0000'));
    if (schema.maximum === undefined) cases.push(edge('2^53+1', '9007199254740993'), edge('-0', '-0'));
    else cases.push(bad('maximum + 1', String(schema.maximum + 1)));
  } else if (schema.type === 'boolean') {
    cases.push(bad('maybe', 'maybe'), bad('2', '2'), bad('array', 'true', 'false'), bad('__proto__', '__proto__'));
  } else if (schema.type === 'array') {
    const limit = schema.maxItems ?? 10;
    cases.push(bad(`${limit + 1} values`, ...Array.from({ length: limit + 1 }, (_, index) => `v${index}`)));
    cases.push(edge('__proto__', '__proto__'), edge('NUL', 'a\u0000b'), edge('blank', '', ' , ,'), edge('unicode', 'ünï😀'));
    if (name === 'ids') cases.push(edge('not UUIDs', 'not-a-uuid,also-not'), edge('urn:uuid', `urn:uuid:${GHOST_ID}`));
  } else if (schema.enum) {
    cases.push(
      bad('__proto__', '__proto__'),
      bad('lower case', String(schema.enum[0]).toLowerCase() === schema.enum[0] ? 'X' : String(schema.enum[0]).toLowerCase()),
      bad('array', String(schema.enum[0]), String(schema.enum[0])),
    );
  } else if (schema.format === 'uuid') {
    cases.push(
      bad('not a UUID', 'not-a-uuid'),
      bad('NUL', `${GHOST_ID}\u0000`),
      bad('array', GHOST_ID, GHOST_ID),
      bad('overlong', 'a'.repeat(5000)),
      bad('urn:uuid', `urn:uuid:${GHOST_ID}`),
    );
    cases.push(edge('upper case', GHOST_ID.toUpperCase()));
  } else if (schema.format === 'date-time') {
    cases.push(
      bad('month 13', '2030-13-01T00:00:00Z'),
      bad('no offset', '2030-01-01T09:00:00'),
      bad('words', 'yesterday'),
      bad('array', '2030-01-01T00:00:00Z', '2030-01-02T00:00:00Z'),
    );
    cases.push(bad('41 characters', `2030-01-01T00:00:00.${'1'.repeat(20)}Z`));
    cases.push(
      edge('year 0', '0000-01-01T00:00:00Z'),
      edge('year 9999 -23:59', '9999-12-31T23:59:59.999-23:59'),
      edge('leap second', '2030-06-30T23:59:60Z'),
      edge('nanoseconds', '2030-01-01T00:00:00.123456789Z'),
    );
  } else {
    const limit = schema.maxLength ?? 200;
    cases.push(bad(`${limit + 1} characters`, 'x'.repeat(limit + 1)), bad('array', 'a', 'b'));
    cases.push(
      edge('NUL', 'a\u0000b'),
      edge('%_\\', '%_\\'),
      edge('unicode', 'ünï😀'),
      edge('CESU-8 surrogate', `${RAW}%ED%A0%80`),
      edge('bytes %FF%FE', `${RAW}%FF%FE`),
    );
  }
  return cases;
}

/** Values of a body member that its schema refuses (or that are no text PostgreSQL can store). */
function badMemberValues(schema: JsonSchema): { label: string; value: unknown }[] {
  const values: { label: string; value: unknown }[] = [
    { label: 'null', value: null },
    { label: 'array', value: [] },
    { label: 'deeply nested array', value: deepArray },
    { label: '1e309', value: Raw.text('1e309') },
    { label: '-0', value: Raw.text('-0') },
    { label: '2^53+1', value: Raw.text('9007199254740993') },
  ];
  if (schema.type !== 'object')
    values.push({ label: 'object', value: { __proto__: null, role: 'ADMIN' } }, { label: 'deeply nested object', value: deepObject });
  else
    values.push(
      { label: 'string', value: 'text' },
      { label: 'extra member', value: { fuzzExtra: 1 } },
      { label: '__proto__ member', value: Raw.text('{"__proto__":{"role":"ADMIN"}}') },
    );
  if (schema.type === 'string' || schema.anyOf) {
    values.push({ label: 'number', value: 12345 }, { label: 'true', value: true });
    values.push(
      { label: 'NUL', value: 'Fuzz\u0000Nul' },
      { label: 'lone surrogate', value: 'Fuzz\ud800' },
      { label: 'lone low surrogate', value: '\udfffFuzz' },
    );
    values.push({ label: 'invalid UTF-8', value: wrap(INVALID_UTF8) });
    if (schema.maxLength !== undefined) values.push({ label: `${schema.maxLength + 1} characters`, value: 'x'.repeat(schema.maxLength + 1) });
    if ((schema.minLength ?? 0) > 0) values.push({ label: 'empty', value: '' });
    if (schema.pattern === '\\S') values.push({ label: 'blank', value: ' \t ' });
    if (schema.format === 'uuid')
      values.push(
        { label: 'not a UUID', value: 'not-a-uuid' },
        { label: 'UUID without hyphens', value: GHOST_ID.replaceAll('-', '') },
        { label: 'urn:uuid:', value: `urn:uuid:${GHOST_ID}` },
      );
    if (schema.format === 'date-time') values.push({ label: 'month 13', value: '2030-13-01T09:00:00Z' }, { label: 'no offset', value: '2030-01-01T09:00:00' });
    if (schema.format === 'email') values.push({ label: 'not an e-mail', value: 'nobody' });
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    values.push({ label: 'numeric string', value: '1' }, { label: '1.5', value: 1.5 }, { label: 'true', value: true });
    if (schema.maximum !== undefined) values.push({ label: 'maximum + 1', value: schema.maximum + 1 });
    if (schema.minimum !== undefined) values.push({ label: 'minimum - 1', value: schema.minimum - 1 });
  }
  if (schema.type === 'boolean') values.push({ label: '"true"', value: 'true' }, { label: '1', value: 1 });
  if (schema.enum) values.push({ label: '__proto__', value: '__proto__' }, { label: 'lower case', value: String(schema.enum[0]).toLowerCase() });
  if (schema.type === 'array')
    values.push(
      { label: `${(schema.maxItems ?? 10) + 1} items`, value: Array.from({ length: (schema.maxItems ?? 10) + 1 }, () => ({})) },
      { label: '[null]', value: [null] },
    );
  return values;
}

/** Legal values at the limits of a member's schema. */
function edgeMemberValues(schema: JsonSchema): { label: string; value: unknown }[] {
  if (schema.anyOf) return schema.anyOf.flatMap(edgeMemberValues);
  if (schema.format === 'date-time') {
    return [
      { label: 'year 0', value: '0000-01-01T00:00:00Z' },
      { label: 'year 9999 at -23:59', value: '9999-12-31T23:59:59.999-23:59' },
      { label: 'leap second', value: '2030-06-30T23:59:60Z' },
      { label: 'nanoseconds', value: '2030-01-01T00:00:00.123456789Z' },
    ];
  }
  if (schema.format === 'uuid') {
    return [
      { label: 'upper-case unknown UUID', value: GHOST_ID.toUpperCase() },
      { label: 'nil UUID', value: '00000000-0000-0000-0000-000000000000' },
    ];
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    const values: { label: string; value: unknown }[] = [{ label: '-0', value: Raw.text('-0') }];
    if (schema.maximum === undefined)
      values.push(
        { label: '2^53+1', value: Raw.text('9007199254740993') },
        { label: '1e308', value: Raw.text('1e308') },
        { label: '-1e308', value: Raw.text('-1e308') },
      );
    else values.push({ label: 'maximum', value: schema.maximum }, { label: 'minimum', value: schema.minimum });
    if (schema.type === 'number') values.push({ label: '5e-324', value: Raw.text('5e-324') });
    return values;
  }
  if (schema.type === 'string' && schema.maxLength !== undefined) {
    // Counted in code points, as JSON Schema counts: astral characters at the limit.
    return [{ label: `${schema.maxLength} astral characters`, value: '😀'.repeat(schema.maxLength) }];
  }
  return [];
}

describe('fuzzing every documented operation', () => {
  let t: TestApp;
  let document: OpenApiDocument;
  let operations: DocumentedOperation[];
  const tokens: Record<'ADMIN' | 'USER', string> = { ADMIN: '', USER: '' };
  /** Signed in only to be signed out by the logout cases (logout takes no input to malform). */
  const logoutPairs: Record<'ADMIN' | 'USER', TokenPairBody | undefined> = { ADMIN: undefined, USER: undefined };
  let adminId: string;
  let user: UserBody;
  let victim: UserBody;
  let ids: { department: string; room: string; desk: string; equipment: string; reservation: string; report: string; team: string; user: string };
  let port: number;
  const userPassword = 'fuzz-user-password-1';
  let emailCounter = 0;
  // The document's schemas, checked as the service checks them (OpenAPI adds keywords Ajv does not know).
  const local = createAjv({ coerceTypes: false, strict: false });
  const localQuery = createAjv({ coerceTypes: 'array', strict: false });
  const compiled = new Map<object, ValidateFunction>();
  const validator = (ajv: Ajv, key: object, schema: object = key) => {
    let validate = compiled.get(key);
    if (!validate) compiled.set(key, (validate = ajv.compile(schema)));
    return validate;
  };
  const day = (offset: number, hour: number) => {
    const date = new Date();
    date.setUTCHours(hour, 0, 0, 0);
    return new Date(date.getTime() + offset * 86_400_000);
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '1000000', LOGIN_MAX_FAILURES_PER_ACCOUNT: '1000000' } });
    tokens.ADMIN = await t.adminToken();
    adminId = (await t.request({ method: 'GET', url: '/api/self', token: tokens.ADMIN })).json<UserBody>().id;
    user = await t.createUser({ email: 'fuzz.user@example.test', firstName: 'Fuzz', lastName: 'User', password: userPassword });
    victim = await t.createUser({ email: 'fuzz.victim@example.test', firstName: 'Fuzz', lastName: 'Victim', password: 'fuzz-victim-password-1' });
    tokens.USER = (await t.login(user.email, userPassword)).accessToken;
    logoutPairs.ADMIN = await t.login('admin@example.test', ADMIN_PASSWORD);
    logoutPairs.USER = await t.login(user.email, userPassword);
    const { db } = t.database.handle;
    const { department, room, desk } = await insertDeskInNewRoom(db);
    const item = await insertEquipment(db, desk.id);
    const reservation = await insertReservation(db, { userId: user.id, deskId: desk.id, startTime: day(2, 9), endTime: day(2, 10) });
    const report = await insertReport(db, { reportedBy: user.id, departmentId: department.id, roomId: room.id, deskId: desk.id, equipmentId: item.id });
    const team = (await t.request({ method: 'POST', url: '/api/teams', token: tokens.ADMIN, payload: { name: 'Fuzzed team' } })).json<{ id: string }>();
    ids = {
      department: department.id,
      room: room.id,
      desk: desk.id,
      equipment: item.id,
      reservation: reservation.id,
      report: report.id,
      team: team.id,
      user: victim.id,
    };
    const answer = await t.request({ method: 'GET', url: '/api/openapi.json' });
    expect(answer.statusCode).toBe(200);
    document = answer.json<OpenApiDocument>();
    operations = documentedOperations(document);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t?.close());

  /** The id a path parameter names in the valid form of a request. */
  function pathId(operation: DocumentedOperation, name: string): string {
    if (name !== 'id') return ids[name.replace(/Id$/, '') as keyof typeof ids];
    if (operation.path.startsWith('/api/users/')) return victim.id;
    if (operation.path.startsWith('/api/reservation/')) return ids.reservation;
    if (operation.path.startsWith('/api/report/')) return ids.report;
    return GHOST_ID; // sessions: never one of ours
  }

  function url(operation: DocumentedOperation, overrides: Record<string, string> = {}, query = ''): string {
    const filled = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => overrides[name] ?? pathId(operation, name));
    return query ? `${filled}?${query}` : filled;
  }

  /** A valid body for the operation, derived from its schema and the fixtures. */
  function example(schema: JsonSchema, role: 'ADMIN' | 'USER', name = ''): unknown {
    if (schema.anyOf || schema.oneOf) return example((schema.anyOf ?? schema.oneOf)![0]!, role, name);
    if (schema.type === 'object') {
      const value: Record<string, unknown> = {};
      for (const [member, memberSchema] of Object.entries(schema.properties ?? {})) value[member] = example(memberSchema, role, member);
      return value;
    }
    if (schema.type === 'array') return [example(schema.items ?? {}, role, name)];
    if (schema.enum) return name === 'role' ? 'USER' : schema.enum[0];
    if (schema.type === 'boolean') return ['available', 'enabled', 'partlyReserved'].includes(name);
    if (schema.type === 'integer' || schema.type === 'number')
      return name === 'seconds' ? 3600 : Math.min(Math.max(1, schema.minimum ?? 1), schema.maximum ?? 1);
    if (schema.format === 'uuid') {
      if (name === 'reportedBy' || name === 'userId') return role === 'ADMIN' ? victim.id : user.id;
      const key = name.replace(/Id$/, '') as keyof typeof ids;
      return ids[key] ?? GHOST_ID;
    }
    if (schema.format === 'date-time') return (/end|to/i.test(name) ? day(3, 10) : day(3, 9)).toISOString();
    if (schema.format === 'email') return `fuzz.${++emailCounter}@example.test`;
    if (name === 'currentPassword') return role === 'ADMIN' ? ADMIN_PASSWORD : userPassword;
    if ((schema.minLength ?? 0) >= 8) return 'fuzz-new-password-1';
    if (name === 'email') return victim.email;
    return 'Fuzz';
  }

  /** Whether the query passes the operation's schema, coerced as the service coerces it. */
  function isValidQuery(operation: DocumentedOperation, query: Record<string, string | string[]>): boolean {
    const schema = {
      type: 'object',
      properties: Object.fromEntries(operation.queryParameters.map((parameter) => [parameter.name, parameter.schema])),
      required: operation.queryParameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    };
    return validator(localQuery, operation.queryParameters, schema)({ ...query }) as boolean;
  }

  /** Every case for one operation and role, before sampling (the first few are always sent). */
  function casesFor(operation: DocumentedOperation, role: 'ADMIN' | 'USER'): { always: FuzzCase[]; others: FuzzCase[] } {
    const always: FuzzCase[] = [];
    const others: FuzzCase[] = [];
    const json = { 'content-type': 'application/json' };
    const baseBody = operation.bodySchema ? example(operation.bodySchema, role) : undefined;
    const baseBytes = baseBody === undefined ? undefined : encodeJson(baseBody);
    const validBody = baseBytes === undefined ? {} : { payload: () => baseBytes, headers: json };
    type Request = Omit<FuzzCase, 'operation' | 'label' | 'phase' | 'method'>;
    const make = (label: string, phase: Phase, request: Request): FuzzCase => ({
      operation: operation.key,
      label,
      phase,
      method: operation.method,
      ...request,
    });

    // Path parameters, one at a time; the rest of the request is valid.
    for (const parameter of operation.pathParameters) {
      BAD_PATH_VALUES.forEach(({ label, value }, index) => {
        const target = index < 5 ? always : others;
        const viaSocket = /%2e/i.test(value);
        target.push(make(`path ${parameter.name}: ${label}`, 'malformed', { url: url(operation, { [parameter.name]: value }), viaSocket, ...validBody }));
      });
      for (const { label, value } of EDGE_PATH_VALUES)
        others.push(make(`path ${parameter.name}: ${label}`, 'edge', { url: url(operation, { [parameter.name]: value }), ...validBody }));
    }

    // Query parameters of the wrong type or out of range, one at a time.
    for (const parameter of operation.queryParameters) {
      for (const { label, values, phase } of queryValues(parameter)) {
        const query = values
          .map((value) => `${encodeURIComponent(parameter.name)}=${value.startsWith(RAW) ? value.slice(RAW.length) : encodeURIComponent(value)}`)
          .join('&');
        const parsed: Record<string, string | string[]> = { [parameter.name]: values.length === 1 ? values[0]! : values };
        // A value the schema takes but a later check must refuse (sort, pageable) stays malformed.
        const refused =
          phase === 'malformed' && (!isValidQuery(operation, parsed) || /^(sort|pageable|pageable\[sort\])$/.test(parameter.name) || label.endsWith('NUL'));
        // Destructive operations get only queries that must be refused, so nothing is deleted.
        if (!refused && operation.method !== 'GET' && operation.method !== 'POST') continue;
        others.push(make(`query ${label.slice(0, 60)}`, refused ? 'malformed' : 'edge', { url: url(operation, {}, query), ...validBody }));
      }
    }
    if (operation.queryParameters.some((parameter) => parameter.name === 'page')) {
      for (const query of ['page=1&page=2&size=1&size=2', 'size=%FF%FE&page=%00'])
        others.push(make(`query trick ${query}`, 'malformed', { url: url(operation, {}, query), ...validBody }));
    }
    // Members spelled to pollute prototypes, and a body where none belongs: ignored or refused, never obeyed.
    if (operation.method === 'GET') {
      for (const query of ['__proto__[role]=ADMIN&constructor[prototype][role]=ADMIN', '__proto__=x&sort[]=id&pageable[__proto__]=1']) {
        others.push(make(`query trick ${query}`, 'edge', { url: url(operation, {}, query) }));
      }
      others.push(
        make('GET with a JSON body {"__proto__":…}', 'edge', {
          url: url(operation),
          payload: () => Buffer.from('{"__proto__":{"role":"ADMIN"}}'),
          headers: json,
        }),
      );
    }

    if (operation.bodySchema) {
      const schema = operation.bodySchema;
      const body = (value: unknown) => {
        const bytes = value instanceof Buffer ? value : encodeJson(value);
        return { url: url(operation), payload: () => bytes, headers: json };
      };
      const text = (payload: string | Buffer, contentType = 'application/json') => ({
        url: url(operation),
        payload: () => Buffer.from(payload),
        headers: { 'content-type': contentType },
      });
      const members = memberPaths(schema);
      const firstString = members.find((member) => member.schema.type === 'string');
      const limit = t.config.BODY_LIMIT_BYTES;
      always.push(make('body: {"__proto__":{"role":"ADMIN"}}', 'malformed', text(`{"__proto__":{"role":"ADMIN"},${encodeJson(baseBody).toString().slice(1)}`)));
      always.push(
        make('body: constructor.prototype', 'malformed', text(`{"constructor":{"prototype":{"role":"ADMIN"}},${encodeJson(baseBody).toString().slice(1)}`)),
      );
      always.push(make('body: depth 10,000 arrays', 'malformed', text(deepArray.bytes)));
      const padded = (length: (emptyLength: number) => number) => () => {
        const where = firstString?.path ?? ['fuzz'];
        return encodeJson(withMember(baseBody, where, 'x'.repeat(length(encodeJson(withMember(baseBody, where, '')).length))));
      };
      always.push(make('body: over the body limit', 'malformed', { url: url(operation), headers: json, payload: padded(() => limit + 10) }));
      always.push(make('body: just under the body limit', 'malformed', { url: url(operation), headers: json, payload: padded((empty) => limit - empty - 16) }));
      if (firstString)
        always.push(make(`body ${firstString.path.join('.')}: invalid UTF-8`, 'malformed', body(withMember(baseBody, firstString.path, wrap(INVALID_UTF8)))));
      others.push(make('body: depth 10,000 objects', 'malformed', text(deepObject.bytes)));
      others.push(make('body: extra member', 'malformed', body({ ...(baseBody as object), fuzzExtra: true })));
      others.push(make('body: empty, declared JSON', 'malformed', text('')));
      // Search takes no body as "no criteria" (docs/behaviour.md, Search); elsewhere a missing required member is a 400.
      others.push(make('body: none', schema.required?.length ? 'malformed' : 'edge', { url: url(operation) }));
      for (const payload of ['null', '[]', '"text"', '1e309', '{"a":1}}']) others.push(make(`body: ${payload}`, 'malformed', text(payload)));
      // RFC 8259 lets a parser ignore a byte order mark.
      others.push(make('body: byte order mark', 'edge', text(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), baseBytes!]))));
      for (const contentType of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=fuzz',
        'application/xml',
        'application/json-patch+json',
        'image/svg+xml',
      ]) {
        others.push(make(`body as ${contentType}`, 'malformed', text(encodeJson(baseBody), contentType)));
      }
      for (const member of members) {
        const where = `body ${member.path.join('.')}`;
        for (const { label, value } of badMemberValues(member.schema)) {
          const mutated = withMember(baseBody, member.path, value);
          const bytes = encodeJson(mutated);
          let parsed: unknown;
          try {
            parsed = JSON.parse(bytes.toString('utf8'));
          } catch {
            parsed = undefined;
          }
          // Texts with NUL or lone surrogates pass the schema but cannot be stored: malformed too.
          const schemaRefuses = parsed === undefined || !validator(local, schema)(parsed);
          const unstorable = /NUL|surrogate|UTF-8/.test(label);
          others.push(make(`${where}: ${label}`, schemaRefuses || unstorable ? 'malformed' : 'edge', body(bytes)));
        }
        for (const { label, value } of edgeMemberValues(member.schema))
          others.push(make(`${where}: ${label}`, 'edge', body(withMember(baseBody, member.path, value))));
      }
    } else if (operation.method === 'PUT' || operation.method === 'POST' || (operation.method === 'DELETE' && operation.pathParameters.length === 0)) {
      // Image uploads (and logout, and deleting one's calendar feed): bodies that are no image.
      const raw = (label: string, payload: string | Buffer, contentType: string) =>
        others.push(make(label, 'malformed', { url: url(operation), payload: () => Buffer.from(payload), headers: { 'content-type': contentType } }));
      const pngHeader = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
      raw('body: SVG', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'image/svg+xml');
      raw(
        'body: PNG signature then garbage',
        Buffer.concat([pngHeader, Buffer.from([0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f, 8, 6, 0, 0, 0])]),
        'image/png',
      );
      raw('body: text declared PNG', 'not an image', 'image/png');
      raw('body: JSON {"__proto__":…}', '{"__proto__":{"role":"ADMIN"}}', 'application/json');
      raw(
        'body: multipart without a file',
        '--fuzz\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--fuzz--\r\n',
        'multipart/form-data; boundary=fuzz',
      );
      raw('body: multipart, bad boundary', '--other\r\n\r\n', 'multipart/form-data; boundary=fuzz');
      raw('body: empty JSON', '', 'application/json');
    }
    return { always, others };
  }

  interface Outcome {
    fuzzCase: FuzzCase;
    role: Role;
    status: number;
    contentType: string;
    body: string;
  }

  async function send(fuzzCase: FuzzCase, role: Role): Promise<Outcome> {
    let token: string | undefined;
    if (role !== 'anonymous') token = fuzzCase.operation === 'POST /api/auth/logout' ? logoutPairs[role]!.accessToken : tokens[role];
    const headers = { ...(fuzzCase.headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) };
    const payload = fuzzCase.payload?.();
    if (fuzzCase.viaSocket) {
      const lines = [
        `${fuzzCase.method} ${fuzzCase.url} HTTP/1.1`,
        'Host: 127.0.0.1',
        'Connection: close',
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      ];
      if (payload) lines.push(`Content-Length: ${payload.length}`);
      const answer = await rawRequest(port, `${lines.join('\r\n')}\r\n\r\n`, payload);
      return { fuzzCase, role, status: answer.status, contentType: answer.headers['content-type'] ?? '', body: answer.body };
    }
    // An answer that never comes is a finding too (a hang), not a test timeout.
    const response = await Promise.race([
      t.app.inject({ method: fuzzCase.method as InjectOptions['method'], url: fuzzCase.url, headers, ...(payload ? { payload } : {}) }),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`no answer within 20 s: ${role} ${fuzzCase.operation} ${fuzzCase.label}`)), 20_000).unref(),
      ),
    ]);
    return { fuzzCase, role, status: response.statusCode, contentType: String(response.headers['content-type'] ?? ''), body: response.body };
  }

  /** What is wrong with one answer (undefined: nothing). */
  function fault({ fuzzCase, role, status, contentType, body }: Outcome): string | undefined {
    const where = `${role} ${fuzzCase.operation} [${fuzzCase.label}] -> ${status}`;
    if (status >= 500 || status < 100) return `${where} ${body.slice(0, 200)}`;
    if (status >= 400) {
      if (!contentType.startsWith('application/problem+json')) return `${where}: ${contentType} is not problem+json`;
      const problem = JSON.parse(body) as { code?: unknown; status?: unknown };
      if (typeof problem.code !== 'string' || problem.status !== status) return `${where}: problem without code/status ${body.slice(0, 200)}`;
      if (/\bat \S+ \(\S+:\d+:\d+\)|node_modules|\.ts:\d+|"stack"/.test(body)) return `${where}: leaks internals ${body.slice(0, 200)}`;
      // Without a token only public operations look at their input; a URL no route takes may be refused first.
      const operation = operations.find((item) => item.key === fuzzCase.operation)!;
      // So may a query string that is not UTF-8: it is refused (400 INVALID_ENCODING) before anything reads it.
      const undecodable = problem.code === 'INVALID_ENCODING' && fuzzCase.label.startsWith('query ');
      if (role === 'anonymous' && !operation.public && status !== 401 && !fuzzCase.label.startsWith('path ') && !undecodable)
        return `${where} ${String(problem.code)}, not 401`;
      // A path parameter of any length reaches its operation (docs/behaviour.md, HTTP): a 400 names it, or the
      // operation refuses the caller first (401, 403) or answers its own 404; never "no such operation".
      const lengthCase = /^path (\w+): (overlong|at the router limit|past the router limit|300 digits)$/.exec(fuzzCase.label);
      if (lengthCase) {
        const named = (problem as { errors?: { field: string }[] }).errors?.some((error) => error.field === lengthCase[1]);
        if (problem.code === 'ROUTE_NOT_FOUND' || (status === 400 && (problem.code !== 'VALIDATION_FAILED' || !named)))
          return `${where}: ${String(problem.code)}, not a 400 naming ${lengthCase[1]} ${body.slice(0, 200)}`;
      }
      return undefined;
    }
    if (fuzzCase.phase === 'malformed') return `${where}: a malformed request was accepted ${body.slice(0, 120)}`;
    return undefined;
  }

  let plan: { fuzzCase: FuzzCase; role: Role }[] | undefined;
  /** The cases to send, chosen once per run with the seed: per operation and role a bounded sample. */
  function planned(phase: Phase): { fuzzCase: FuzzCase; role: Role }[] {
    if (!plan) {
      const random = seededRandom(SEED);
      plan = [];
      for (const operation of operations) {
        for (const role of ['ADMIN', 'USER'] as const) {
          const { always, others } = casesFor(operation, role);
          const budget = role === 'ADMIN' ? ADMIN_CASES_PER_OPERATION : USER_CASES_PER_OPERATION;
          const chosen = sample([...always, ...others], budget, random, Math.min(always.length, budget));
          for (const fuzzCase of chosen) plan.push({ fuzzCase, role });
          if (role === 'ADMIN')
            for (const fuzzCase of chosen.filter((item) => item.phase === 'malformed').slice(0, ANONYMOUS_CASES_PER_OPERATION))
              plan.push({ fuzzCase, role: 'anonymous' });
        }
      }
    }
    return plan.filter((item) => item.fuzzCase.phase === phase);
  }

  it('covers every documented operation, as ADMIN and as USER, with every kind of malformed input', () => {
    expect(operations.length).toBeGreaterThanOrEqual(50);
    const malformed = planned('malformed');
    const all = [...malformed, ...planned('edge')];
    for (const operation of operations) {
      for (const role of ['ADMIN', 'USER'])
        expect(
          all.some((item) => item.fuzzCase.operation === operation.key && item.role === role),
          `${role} ${operation.key}`,
        ).toBe(true);
      // Operations that take no input at all have nothing to malform.
      const takesInput = operation.pathParameters.length + operation.queryParameters.length > 0 || operation.method !== 'GET';
      if (takesInput)
        expect(
          malformed.some((item) => item.fuzzCase.operation === operation.key && item.role === 'anonymous'),
          `anonymous ${operation.key}`,
        ).toBe(true);
    }
    const labels = malformed.map((item) => item.fuzzCase.label);
    const kinds = [
      /^path \w+: not a UUID$/,
      /^path \w+: overlong$/,
      /^path \w+: at the router limit$/,
      /^path \w+: past the router limit$/,
      /^path token: past the router limit$/,
      /^path id: 300 digits$/,
      /^path \w+: %00$/,
      /^path \w+: \.\.%2f$/,
      /^path \w+: %2e%2e$/,
      /^path \w+: unicode$/,
      /^query (pageable\[)?sort\]?=__proto__$/,
      /^query pageable=\{"__proto__"/,
      /^query (pageable\[)?page\]?=huge$/,
      /^query .*=-1$/,
      /^query .*=array$/,
      /^query .*=string$/,
      /^body: depth 10,000/,
      /^body: \{"__proto__":\{"role":"ADMIN"\}\}$/,
      /^body: constructor\.prototype$/,
      /^body: extra member$/,
      /^body: empty, declared JSON$/,
      /^body as text\/plain$/,
      /^body as application\/x-www-form-urlencoded$/,
      /^body: over the body limit$/,
      /^body: just under the body limit$/,
      /^body \S+: null$/,
      /^body \S+: number$/,
      /^body \S+: NUL$/,
      /^body \S+: lone (low )?surrogate$/,
      /^body \S+: 1e309$/,
      /^body \S+: -0$/,
      /^body \S+: 2\^53\+1$/,
      /^body \S+: deeply nested (array|object)$/,
    ];
    expect(kinds.filter((kind) => !labels.some((label) => kind.test(label))).map(String), `seed ${SEED}: kinds never sent`).toEqual([]);
  });

  it('refuses malformed input to every operation with a 4xx problem, and stores nothing', async () => {
    const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
    const before = await tableContents(t.database.handle.db);
    const plan = planned('malformed');
    const faults: string[] = [];
    for (const { fuzzCase, role } of plan) {
      const found = fault(await send(fuzzCase, role));
      if (found) faults.push(found);
    }
    expect(plan.length).toBeGreaterThan(800);
    // Soft: the database comparison below is reported as well.
    expect.soft(faults, `seed ${SEED}: ${faults.length} of ${plan.length} answers are wrong`).toEqual([]);

    const after = await tableContents(t.database.handle.db);
    // Failed sign-ins are counted on purpose (login_throttle); the logout cases end their own
    // sessions, which is what logout does whatever else the request carries.
    const housekeeping = ['public.login_throttle'];
    for (const name of housekeeping) {
      before.delete(name);
      after.delete(name);
    }
    const ended = new Set([logoutPairs.ADMIN!.sessionId, logoutPairs.USER!.sessionId]);
    for (const snapshot of [before, after])
      snapshot.set(
        'public.sessions',
        snapshot.get('public.sessions')!.filter((row) => ![...ended].some((id) => row.includes(id))),
      );
    expect([...before.keys()]).toEqual(expect.arrayContaining(['public.users', 'public.sessions', 'public.reservations', 'public.departments']));
    expect(contentChanges(before, after), 'a malformed request changed the database').toEqual([]);

    expect(({} as Record<string, unknown>).role).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
  });

  it('answers legal values at the limits without a 5xx', async () => {
    const plan = planned('edge');
    const faults: string[] = [];
    for (const { fuzzCase, role } of plan) {
      const found = fault(await send(fuzzCase, role));
      if (found) faults.push(found);
    }
    expect(plan.length).toBeGreaterThan(100);
    expect(faults, `seed ${SEED}: ${faults.length} of ${plan.length} answers are wrong`).toEqual([]);
  });

  it('is alive and unpolluted afterwards: roles unchanged, sign-in and booking work', async () => {
    expect(({} as Record<string, unknown>).role).toBeUndefined();
    expect(({} as Record<string, unknown>).prototype).toBeUndefined();
    const self = await t.request({ method: 'GET', url: '/api/self', token: tokens.USER });
    expect(self.statusCode).toBe(200);
    expect(self.json()).toMatchObject({ id: user.id, role: 'USER' });
    const admin = await t.request({ method: 'GET', url: '/api/self', token: tokens.ADMIN });
    expect(admin.statusCode).toBe(200);
    expect(admin.json()).toMatchObject({ id: adminId, role: 'ADMIN' });
    expect((await t.request({ method: 'GET', url: `/api/users/${victim.id}`, token: tokens.ADMIN })).json()).toMatchObject({ role: 'USER' });
    // The USER still cannot do what admins do.
    expect((await t.request({ method: 'GET', url: '/api/stats', token: tokens.USER })).statusCode).toBe(403);
    // A new user signs in and books a desk of their own: the fuzzed user and desk may hold
    // whatever the legal edge cases booked.
    const fresh = await t.createUser({ email: 'fuzz.after@example.test', password: 'fuzz-after-password-1' });
    const pair = await t.login(fresh.email, 'fuzz-after-password-1');
    const desk = await insertDesk(t.database.handle.db, ids.room, { name: 'After the fuzz' });
    const booking = await t.request({
      method: 'POST',
      url: '/api/reservation',
      token: pair.accessToken,
      payload: { deskId: desk.id, startTime: day(6, 13).toISOString(), endTime: day(6, 14).toISOString() },
    });
    expect(booking.statusCode, booking.body).toBe(200);
    expect(booking.json()).toMatchObject({ userId: fresh.id, deskId: desk.id });
  });
});

describe('path tricks on the web app', () => {
  let base: string;
  let t: TestApp;
  let port: number;
  const CANARY = 'FUZZ-CANARY-OUTSIDE-THE-WEB-ROOT';
  const INDEX = '<!doctype html><html><body><div id="root">FUZZ-INDEX</div></body></html>';

  beforeAll(async () => {
    // A fake build in base/web, with files next to it that must never be served.
    base = mkdtempSync(path.join(tmpdir(), 'deskbook-fuzz-'));
    mkdirSync(path.join(base, 'web', 'assets'), { recursive: true });
    writeFileSync(path.join(base, 'web', 'index.html'), INDEX);
    writeFileSync(path.join(base, 'web', 'assets', 'app-Ab12.js'), 'console.log("fuzz")');
    writeFileSync(path.join(base, 'secret.txt'), CANARY);
    writeFileSync(path.join(base, 'package.json'), `{"name":"${CANARY}"}`);
    t = await createTestApp({ webRoot: path.join(base, 'web') });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(base, { recursive: true, force: true });
  });

  const TRICKS = [
    '/assets/../index.html',
    '/assets/../../secret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/assets/..%5c..%5cpackage.json',
    '/assets/..\\..\\package.json',
    '/assets/%00',
    '/assets/app-Ab12.js%00.html',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/assets/%252e%252e/secret.txt',
    '/assets/%c0%ae%c0%ae/%c0%ae%c0%ae/secret.txt',
    '/assets/%c0%af..%c0%afsecret.txt',
    '/assets/....//....//secret.txt',
    '/assets/..;/secret.txt',
    '/assets//etc/passwd',
    '/assets/%2fetc%2fpasswd',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/%2e%2e/secret.txt',
    '/../secret.txt',
    '//etc/passwd',
    '/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd',
    '/api/../secret.txt',
    '/api/users/..%2f..%2fsecret.txt',
    '/index.html/../../secret.txt',
  ];

  it('never answers a 5xx nor a file from outside the web root (raw requests, nothing normalised)', async () => {
    const faults: string[] = [];
    const sent: string[] = [];
    for (const trick of TRICKS) {
      for (const accept of ['text/html', '*/*']) {
        const label = `web ${trick} (accept ${accept})`;
        sent.push(label);
        const answer = await rawRequest(port, `GET ${trick} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: ${accept}\r\nConnection: close\r\n\r\n`);
        if (answer.status >= 500 || answer.status === 0) faults.push(`${label} -> ${answer.status} ${answer.body.slice(0, 160)}`);
        if (answer.body.includes(CANARY) || /root:x?:0:0/.test(answer.body)) faults.push(`${label} -> ${answer.status} served a file outside the web root`);
        if (
          answer.status >= 400 &&
          answer.headers['content-type'] !== undefined &&
          !answer.headers['content-type'].startsWith('application/problem+json') &&
          !answer.headers['content-type'].startsWith('text/html')
        ) {
          faults.push(`${label} -> ${answer.status} ${answer.headers['content-type']}`);
        }
      }
    }
    expect(sent.length).toBeGreaterThan(10);
    expect(faults).toEqual([]);
    // The web app itself is still served.
    const page = await rawRequest(port, 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/html\r\nConnection: close\r\n\r\n');
    expect(page.status).toBe(200);
    expect(page.body).toContain('FUZZ-INDEX');
  });
});
