import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import { AppError } from './errors.js';

/**
 * Spring-style paging shared by every list and search operation (docs/api.md#paging):
 * `page` (0-based), `size` (default 20, clamped to 1000), `sort=property[,asc|desc]`, given as
 * plain parameters, as `pageable[page]=…` parameters, or as one JSON `pageable={…}` parameter.
 * Parsing and the envelope only: the SQL of a page (ORDER BY, LIMIT/OFFSET, totals) is in
 * src/db/paging.ts, since shared code never builds SQL (docs/architecture.md#layers).
 */

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 1000;
const MAX_PAGE = 1_000_000_000;
const MAX_SORTS = 10;

const SortParam = Type.Array(Type.String({ maxLength: 200 }), {
  maxItems: MAX_SORTS,
  description: '`property` or `property,asc|desc` (repeatable; case-insensitive direction).',
});

/** Query members accepted by every paged operation; spread into a route's querystring schema. */
export const pageQueryProperties = {
  page: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_PAGE, description: '0-based page number (default 0).' })),
  size: Type.Optional(Type.Integer({ minimum: 1, description: `Page size (default ${DEFAULT_PAGE_SIZE}; values above ${MAX_PAGE_SIZE} are clamped to it).` })),
  sort: Type.Optional(SortParam),
  pageable: Type.Optional(
    Type.String({
      maxLength: 4000,
      description: 'The same members as one JSON object, e.g. `{"page":0,"size":20,"sort":["name,asc"]}`. Plain `page`/`size`/`sort` win over it.',
    }),
  ),
  'pageable[page]': Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_PAGE, description: 'Same as `page`.' })),
  'pageable[size]': Type.Optional(Type.Integer({ minimum: 1, description: 'Same as `size`.' })),
  'pageable[sort]': Type.Optional(SortParam),
};

export type PageQuery = Static<TObject<typeof pageQueryProperties>>;

export type Direction = 'ASC' | 'DESC';
export interface Order {
  property: string;
  direction: Direction;
}
export interface PageRequest {
  page: number;
  size: number;
  orders: Order[];
}

const pagingError = (field: string, message: string) => new AppError('VALIDATION_FAILED', `${field}: ${message}`, { errors: [{ field, message }] });

function parseJsonPageable(raw: string): { page?: unknown; size?: unknown; sort?: unknown } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw pagingError('pageable', 'must be a JSON object such as {"page":0,"size":20,"sort":["name,asc"]}');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw pagingError('pageable', 'must be a JSON object');
  const unknown = Object.keys(parsed).filter((key) => !['page', 'size', 'sort'].includes(key));
  if (unknown.length > 0) throw pagingError('pageable', `unknown member ${unknown.join(', ')} (page, size and sort are accepted)`);
  return parsed as { page?: unknown; size?: unknown; sort?: unknown };
}

function wholeNumber(field: string, value: unknown, min: number, max: number): number {
  const number = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number)) throw pagingError(field, 'must be a whole number');
  if (number < min) throw pagingError(field, `must be at least ${min}`);
  if (number > max) throw pagingError(field, `must be at most ${max}`);
  return number;
}

function sortList(field: string, value: unknown): string[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  if (list.length > MAX_SORTS || list.some((item) => typeof item !== 'string')) throw pagingError(field, `must be up to ${MAX_SORTS} strings`);
  return list as string[];
}

/** `sort` values name item properties; only those in `sortable` are accepted (never raw SQL). */
function parseOrders(field: string, values: string[], sortable: readonly string[]): Order[] {
  const orders: Order[] = [];
  for (const value of values) {
    const parts = value.split(',').map((part) => part.trim());
    let direction: Direction = 'ASC';
    const last = parts[parts.length - 1]?.toLowerCase();
    if (parts.length > 1 && (last === 'asc' || last === 'desc')) {
      direction = last === 'desc' ? 'DESC' : 'ASC';
      parts.pop();
    }
    for (const property of parts) {
      if (!sortable.includes(property)) {
        // Echo the name only when it looks like one: error texts never repeat arbitrary input.
        const name = /^[A-Za-z0-9_.]{1,60}$/.test(property) ? JSON.stringify(property) : 'that property';
        throw pagingError(field, `cannot sort by ${name}; sortable properties: ${sortable.join(', ')}`);
      }
      if (!orders.some((order) => order.property === property)) orders.push({ property, direction });
    }
  }
  return orders;
}

export function parsePageRequest(query: PageQuery, sortable: readonly string[]): PageRequest {
  const json = query.pageable !== undefined ? parseJsonPageable(query.pageable) : {};
  const page = query.page ?? query['pageable[page]'] ?? (json.page === undefined ? 0 : wholeNumber('pageable.page', json.page, 0, MAX_PAGE));
  const size =
    query.size ??
    query['pageable[size]'] ??
    (json.size === undefined ? DEFAULT_PAGE_SIZE : wholeNumber('pageable.size', json.size, 1, Number.MAX_SAFE_INTEGER));
  let orders: Order[];
  if (query.sort !== undefined) orders = parseOrders('sort', query.sort, sortable);
  else if (query['pageable[sort]'] !== undefined) orders = parseOrders('pageable[sort]', query['pageable[sort]'], sortable);
  else orders = parseOrders('pageable.sort', sortList('pageable.sort', json.sort), sortable);
  return { page, size: Math.min(size, MAX_PAGE_SIZE), orders };
}

export const offsetOf = (request: PageRequest): number => request.page * request.size;

// ---- the envelope of docs/api.md#page-envelope ------------------------------------------------

const SortSchema = Type.Object({
  direction: Type.String({ description: 'ASC or DESC.' }),
  nullHandling: Type.String({ description: 'Always NATIVE.' }),
  ascending: Type.Boolean(),
  property: Type.String(),
  ignoreCase: Type.Boolean({ description: 'Always false.' }),
});

export const Page = <T extends TSchema>(item: T, title: string) =>
  Type.Object(
    {
      totalElements: Type.Integer(),
      totalPages: Type.Integer({ description: '0 for an empty result.' }),
      size: Type.Integer({ description: 'The page size applied.' }),
      content: Type.Array(item),
      number: Type.Integer({ description: '0-based page number.' }),
      sort: Type.Array(SortSchema, { description: 'The orders the caller asked for (empty when none).' }),
      first: Type.Boolean(),
      last: Type.Boolean(),
      numberOfElements: Type.Integer(),
      pageable: Type.Object({
        offset: Type.Integer(),
        sort: Type.Array(SortSchema),
        pageSize: Type.Integer(),
        pageNumber: Type.Integer(),
        paged: Type.Boolean(),
        unpaged: Type.Boolean(),
      }),
      empty: Type.Boolean(),
    },
    { title },
  );

export interface PageOf<T> {
  totalElements: number;
  totalPages: number;
  size: number;
  content: T[];
  number: number;
  sort: Static<typeof SortSchema>[];
  first: boolean;
  last: boolean;
  numberOfElements: number;
  pageable: { offset: number; sort: Static<typeof SortSchema>[]; pageSize: number; pageNumber: number; paged: boolean; unpaged: boolean };
  empty: boolean;
}

export function pageOf<T>(content: T[], totalElements: number, request: PageRequest): PageOf<T> {
  const sort = request.orders.map((order) => ({
    direction: order.direction,
    nullHandling: 'NATIVE',
    ascending: order.direction === 'ASC',
    property: order.property,
    ignoreCase: false,
  }));
  const totalPages = Math.ceil(totalElements / request.size);
  return {
    totalElements,
    totalPages,
    size: request.size,
    content,
    number: request.page,
    sort,
    first: request.page === 0,
    last: request.page >= totalPages - 1,
    numberOfElements: content.length,
    pageable: { offset: offsetOf(request), sort, pageSize: request.size, pageNumber: request.page, paged: true, unpaged: false },
    empty: content.length === 0,
  };
}
