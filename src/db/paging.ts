import { asc, desc, sql, type AnyColumn, type Column, type SQL } from 'drizzle-orm';
import { offsetOf, type PageRequest } from '../shared/paging.js';
import { queryRows, type Database } from './client.js';
import { byShape, prepareRaw } from './prepared.js';

/**
 * The SQL side of paging (docs/api.md#paging): a page request parsed by src/shared/paging.ts
 * becomes ORDER BY, LIMIT and OFFSET here, and a page's total is read with its rows.
 */

/**
 * ORDER BY for a page: the caller's orders, then the documented default order, then a unique
 * tiebreaker so that no row appears on two pages.
 */
export function orderByClauses(request: PageRequest, columns: Record<string, AnyColumn | SQL>, defaults: SQL[], tiebreaker: AnyColumn): SQL[] {
  const requested = request.orders.map((order) => (order.direction === 'DESC' ? desc(columns[order.property]!) : asc(columns[order.property]!)));
  return [...requested, ...defaults, asc(tiebreaker)];
}

/** The requested orders as part of a prepared statement's shape (src/db/prepared.ts). */
export const ordersShape = (request: PageRequest): string => request.orders.map((order) => `${order.property} ${order.direction}`).join(',');

/** Placeholders `limit` and `offset` of a prepared page, and their values. */
export const pagePlaceholders = { limit: sql.placeholder('limit'), offset: sql.placeholder('offset') };
export const pageValues = (request: PageRequest) => ({ limit: request.size, offset: offsetOf(request) });

/**
 * The total of a page whose rows each carry it (counted in the page's own statement, e.g.
 * `count(*) over ()`). A page past the end has no row to carry it: only then is it counted apart.
 */
export async function totalOfPage(rows: { total: number }[], request: PageRequest, countAll: () => Promise<number>): Promise<number> {
  if (rows.length > 0) return rows[0]!.total;
  return offsetOf(request) === 0 ? 0 : countAll();
}

/** The three parts of a page of children read under their parent with pageUnderParent. */
export interface UnderParent {
  /** A select answering one row when the parent exists (none when not). */
  parent: SQL;
  /**
   * The page: a select with its own ORDER BY, LIMIT and OFFSET whose columns are aliased as the
   * row's members; its first column must never be null (the row's id).
   */
  page: SQL;
  /** A select of the children's count(*); not correlated with anything outside it. */
  total: SQL;
}

/** The columns of a raw select, each aliased as its member name (rows read back with fromDriver). */
export const columnsAs = (columns: Record<string, Column>): SQL =>
  sql.join(
    Object.entries(columns).map(([name, column]) => sql`${column} as ${sql.identifier(name)}`),
    sql`, `,
  );

/** A raw row selected with columnsAs, its values decoded as drizzle decodes them (timestamps to Dates). */
export function fromDriver<T>(columns: Record<string, Column>, row: Record<string, unknown>): T {
  const decoded: Record<string, unknown> = {};
  for (const [name, column] of Object.entries(columns)) {
    const value = row[name];
    decoded[name] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return decoded as T;
}

/**
 * A page of children, their total and whether the parent exists, in ONE statement
 * (docs/benchmarks.md#statements-per-request): the parent's row LEFT JOINs the page, and the
 * total is an uncorrelated subquery (computed once). Answers undefined when the parent does not
 * exist; a page past the end is an empty page with the right total (one row of nulls carries it).
 */
export async function pageUnderParent<Row extends object, Parent = unknown>(
  db: Database,
  parts: UnderParent | (() => UnderParent),
  /** Given: `parts` use sql.placeholder for these values and are built once per shape (src/db/prepared.ts). */
  prepared?: { shape: string; values: Record<string, unknown> },
  /** Makes an item of a row (which also holds pageTotal and pageParent); default: the row without those two. */
  toItem?: (row: Record<string, unknown>) => Row,
): Promise<{ rows: Row[]; total: number; parent: Parent } | undefined> {
  const statement = (built: UnderParent) =>
    // The parent as text: every row carries it, only the first one's is parsed.
    sql`select p.*, (${built.total})::int as "pageTotal", row_to_json(parent)::text as "pageParent"
        from (${built.parent} limit 1) as parent left join lateral (${built.page}) as p on true`;
  const build = typeof parts === 'function' ? parts : () => parts;
  const result =
    prepared === undefined
      ? await queryRows<Record<string, unknown>>(db, statement(build()))
      : await byShape(db, `under-parent:${prepared.shape}`, () => prepareRaw(db, statement(build()))).rows<Record<string, unknown>>(prepared.values);
  if (result.length === 0) return undefined;
  const total = Number(result[0]!.pageTotal);
  const parent = fromJson<Parent>(result[0]!.pageParent);
  const first = Object.keys(result[0]!)[0]!;
  if (result[0]![first] === null) return { rows: [], total, parent };
  return {
    rows: toItem === undefined ? result.map(({ pageTotal: _total, pageParent: _parent, ...row }) => row as Row) : result.map(toItem),
    total,
    parent,
  };
}

/** A json column as postgres.js answers it: parsed for json columns, text where a query built the JSON as text. */
export const fromJson = <T>(value: unknown): T => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T));
