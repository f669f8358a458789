import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/shared/errors.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, pageOf, parsePageRequest, type PageQuery, type PageRequest } from '../../src/shared/paging.js';

const SORTABLE = ['name', 'email', 'a', 'b', 'c'] as const;

/** Runs parsePageRequest and answers the AppError it throws (fails the test if it does not throw one). */
function refusal(query: PageQuery, sortable: readonly string[] = SORTABLE): AppError {
  try {
    parsePageRequest(query, sortable);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error(`parsePageRequest(${JSON.stringify(query)}) did not throw`);
}

function expectRefusal(query: PageQuery, field: string, message?: RegExp): AppError {
  const error = refusal(query);
  expect(error.code).toBe('VALIDATION_FAILED');
  expect(error.status).toBe(400);
  expect(error.extras.errors).toHaveLength(1);
  expect(error.extras.errors?.[0]?.field).toBe(field);
  if (message) expect(error.extras.errors?.[0]?.message).toMatch(message);
  return error;
}

const sortItem = (property: string, direction: 'ASC' | 'DESC') => ({
  direction,
  nullHandling: 'NATIVE',
  ascending: direction === 'ASC',
  property,
  ignoreCase: false,
});

describe('parsePageRequest', () => {
  describe('defaults', () => {
    it('answers page 0, size 20 and no orders for an empty query', () => {
      expect(DEFAULT_PAGE_SIZE).toBe(20);
      expect(MAX_PAGE_SIZE).toBe(1000);
      expect(parsePageRequest({}, SORTABLE)).toEqual({ page: 0, size: 20, orders: [] });
    });

    it('applies the defaults for members missing from a JSON pageable', () => {
      expect(parsePageRequest({ pageable: '{}' }, SORTABLE)).toEqual({ page: 0, size: 20, orders: [] });
      expect(parsePageRequest({ pageable: '{"page":3}' }, SORTABLE)).toEqual({ page: 3, size: 20, orders: [] });
      expect(parsePageRequest({ pageable: '{"size":7}' }, SORTABLE)).toEqual({ page: 0, size: 7, orders: [] });
    });

    it('sorts ascending when no direction is given', () => {
      expect(parsePageRequest({ sort: ['name'] }, SORTABLE).orders).toEqual([{ property: 'name', direction: 'ASC' }]);
    });
  });

  describe('the three forms', () => {
    it('reads plain page, size and sort', () => {
      expect(parsePageRequest({ page: 2, size: 5, sort: ['email,desc'] }, SORTABLE)).toEqual({
        page: 2,
        size: 5,
        orders: [{ property: 'email', direction: 'DESC' }],
      });
    });

    it('reads pageable[page], pageable[size] and pageable[sort]', () => {
      expect(parsePageRequest({ 'pageable[page]': 4, 'pageable[size]': 3, 'pageable[sort]': ['name,desc', 'email'] }, SORTABLE)).toEqual({
        page: 4,
        size: 3,
        orders: [
          { property: 'name', direction: 'DESC' },
          { property: 'email', direction: 'ASC' },
        ],
      });
    });

    it('reads a JSON pageable, with numbers or digit strings, and a sort given as a string or an array', () => {
      expect(parsePageRequest({ pageable: '{"page":1,"size":2,"sort":["email,desc"]}' }, SORTABLE)).toEqual({
        page: 1,
        size: 2,
        orders: [{ property: 'email', direction: 'DESC' }],
      });
      expect(parsePageRequest({ pageable: '{"page":"6","size":"9","sort":"name"}' }, SORTABLE)).toEqual({
        page: 6,
        size: 9,
        orders: [{ property: 'name', direction: 'ASC' }],
      });
    });

    it('clamps the size to 1000 in every form', () => {
      expect(parsePageRequest({ size: 5000 }, SORTABLE).size).toBe(1000);
      expect(parsePageRequest({ 'pageable[size]': 1001 }, SORTABLE).size).toBe(1000);
      expect(parsePageRequest({ pageable: '{"size":999999999}' }, SORTABLE).size).toBe(1000);
      expect(parsePageRequest({ size: 1000 }, SORTABLE).size).toBe(1000);
      expect(parsePageRequest({ size: 999 }, SORTABLE).size).toBe(999);
    });
  });

  describe('precedence', () => {
    it('lets plain page/size/sort win over pageable[…] and the JSON pageable', () => {
      const request = parsePageRequest(
        {
          page: 1,
          size: 2,
          sort: ['name,desc'],
          'pageable[page]': 5,
          'pageable[size]': 6,
          'pageable[sort]': ['email'],
          pageable: '{"page":7,"size":8,"sort":["a"]}',
        },
        SORTABLE,
      );
      expect(request).toEqual({ page: 1, size: 2, orders: [{ property: 'name', direction: 'DESC' }] });
    });

    it('lets pageable[…] win over the JSON pageable', () => {
      const request = parsePageRequest(
        { 'pageable[page]': 5, 'pageable[size]': 6, 'pageable[sort]': ['email'], pageable: '{"page":7,"size":8,"sort":["a"]}' },
        SORTABLE,
      );
      expect(request).toEqual({ page: 5, size: 6, orders: [{ property: 'email', direction: 'ASC' }] });
    });

    it('takes each member from wherever it is given (members are independent)', () => {
      const request = parsePageRequest({ page: 3, pageable: '{"page":7,"size":8,"sort":["a,desc"]}' }, SORTABLE);
      expect(request).toEqual({ page: 3, size: 8, orders: [{ property: 'a', direction: 'DESC' }] });
      const mixed = parsePageRequest({ 'pageable[size]': 4, sort: ['b'], pageable: '{"page":2}' }, SORTABLE);
      expect(mixed).toEqual({ page: 2, size: 4, orders: [{ property: 'b', direction: 'ASC' }] });
    });

    it('does not fall back to pageable.sort when a plain sort is present, even if that one is invalid', () => {
      expectRefusal({ sort: ['nope'], pageable: '{"sort":["name"]}' }, 'sort');
    });
  });

  describe('JSON pageable errors', () => {
    it('refuses text that is not JSON', () => {
      expectRefusal({ pageable: 'page=1' }, 'pageable', /JSON/);
      expectRefusal({ pageable: '{"page":1' }, 'pageable');
      expectRefusal({ pageable: '' }, 'pageable');
    });

    it('refuses JSON that is not an object', () => {
      for (const pageable of ['[1,2]', '[]', 'null', '1', '"page"', 'true']) expectRefusal({ pageable }, 'pageable');
    });

    it('refuses unknown members and names them', () => {
      const error = expectRefusal({ pageable: '{"page":0,"offset":20}' }, 'pageable');
      expect(error.extras.errors?.[0]?.message).toContain('offset');
      expectRefusal({ pageable: '{"pageNumber":1}' }, 'pageable', /pageNumber/);
    });

    it('refuses a negative page and a size below 1', () => {
      expectRefusal({ pageable: '{"page":-1}' }, 'pageable.page', /at least 0/);
      expectRefusal({ pageable: '{"page":"-1"}' }, 'pageable.page');
      expectRefusal({ pageable: '{"size":0}' }, 'pageable.size', /at least 1/);
      expectRefusal({ pageable: '{"size":-5}' }, 'pageable.size');
    });

    it('refuses non-integer and non-numeric page and size', () => {
      expectRefusal({ pageable: '{"size":1.5}' }, 'pageable.size', /whole number/);
      expectRefusal({ pageable: '{"size":"1.5"}' }, 'pageable.size');
      expectRefusal({ pageable: '{"size":"abc"}' }, 'pageable.size');
      expectRefusal({ pageable: '{"size":null}' }, 'pageable.size');
      expectRefusal({ pageable: '{"size":true}' }, 'pageable.size');
      expectRefusal({ pageable: '{"page":0.5}' }, 'pageable.page');
      expectRefusal({ pageable: '{"page":[1]}' }, 'pageable.page');
      expectRefusal({ pageable: '{"page":{"n":1}}' }, 'pageable.page');
      expectRefusal({ pageable: '{"page":1e10}' }, 'pageable.page', /at most/);
    });

    it('refuses a sort that is not a string or a list of strings', () => {
      expectRefusal({ pageable: '{"sort":5}' }, 'pageable.sort');
      expectRefusal({ pageable: '{"sort":[{"property":"name"}]}' }, 'pageable.sort');
      expectRefusal({ pageable: '{"sort":["name",1]}' }, 'pageable.sort');
      expectRefusal({ pageable: `{"sort":${JSON.stringify(Array.from({ length: 11 }, () => 'name'))}}` }, 'pageable.sort');
    });

    it('validates the JSON pageable even when plain members win over it', () => {
      expectRefusal({ page: 0, size: 1, sort: ['name'], pageable: 'not json' }, 'pageable');
    });
  });

  describe('sort values', () => {
    it('parses the direction case-insensitively and ignores spaces around parts', () => {
      const orders = (value: string) => parsePageRequest({ sort: [value] }, SORTABLE).orders;
      expect(orders('name,DESC')).toEqual([{ property: 'name', direction: 'DESC' }]);
      expect(orders('name,Desc')).toEqual([{ property: 'name', direction: 'DESC' }]);
      expect(orders('name,dEsC')).toEqual([{ property: 'name', direction: 'DESC' }]);
      expect(orders('name,ASC')).toEqual([{ property: 'name', direction: 'ASC' }]);
      expect(orders('name,aSc')).toEqual([{ property: 'name', direction: 'ASC' }]);
      expect(orders('name , desc')).toEqual([{ property: 'name', direction: 'DESC' }]);
    });

    it('applies one direction to every property of a value such as "a,b,desc"', () => {
      expect(parsePageRequest({ sort: ['a,b,desc'] }, SORTABLE).orders).toEqual([
        { property: 'a', direction: 'DESC' },
        { property: 'b', direction: 'DESC' },
      ]);
      expect(parsePageRequest({ sort: ['a,b'] }, SORTABLE).orders).toEqual([
        { property: 'a', direction: 'ASC' },
        { property: 'b', direction: 'ASC' },
      ]);
    });

    it('keeps the orders of several sort values in the order given; a repeated property keeps its first order', () => {
      expect(parsePageRequest({ sort: ['c,desc', 'a', 'c,asc', 'b,DESC'] }, SORTABLE).orders).toEqual([
        { property: 'c', direction: 'DESC' },
        { property: 'a', direction: 'ASC' },
        { property: 'b', direction: 'DESC' },
      ]);
    });

    it('matches property names exactly (case matters)', () => {
      expectRefusal({ sort: ['Name'] }, 'sort', /cannot sort by "Name"/);
      expectRefusal({ sort: ['EMAIL,desc'] }, 'sort');
    });

    it('refuses properties that are not sortable, in every form, naming the parameter', () => {
      expectRefusal({ sort: ['password'] }, 'sort', /cannot sort by "password"; sortable properties: name, email, a, b, c/);
      expectRefusal({ 'pageable[sort]': ['password,desc'] }, 'pageable[sort]');
      expectRefusal({ pageable: '{"sort":["password"]}' }, 'pageable.sort');
      // One bad value spoils the whole request.
      expectRefusal({ sort: ['name', 'password'] }, 'sort');
      // A direction alone, or an unknown direction, is a property name.
      expectRefusal({ sort: ['desc'] }, 'sort');
      expectRefusal({ sort: ['name,descending'] }, 'sort', /descending/);
      expectRefusal({ sort: ['name,'] }, 'sort');
      expectRefusal({ sort: [''] }, 'sort');
    });

    it('never lets SQL through: anything but a listed property name is refused', () => {
      for (const value of [
        'name;drop table users',
        'name desc',
        'name desc nulls first --',
        '(select 1)',
        'name)--',
        '1',
        "name'",
        'lower(name)',
        'name,asc;',
      ]) {
        expectRefusal({ sort: [value] }, 'sort');
      }
    });

    it('cuts a long property out of the message', () => {
      const error = expectRefusal({ sort: ['x'.repeat(150)] }, 'sort');
      expect(error.message.length).toBeLessThan(300);
      expect(error.message).not.toContain('x'.repeat(61));
    });

    it('refuses every sort when nothing is sortable', () => {
      expect(parsePageRequest({}, []).orders).toEqual([]);
      expect(() => parsePageRequest({ sort: ['name'] }, [])).toThrow(AppError);
    });
  });
});

describe('pageOf', () => {
  const request = (page: number, size: number, orders: PageRequest['orders'] = []): PageRequest => ({ page, size, orders });

  it('builds exactly the envelope of docs/api.md#page-envelope', () => {
    const envelope = pageOf(['a', 'b'], 5, request(1, 2, [{ property: 'name', direction: 'DESC' }]));
    expect(Object.keys(envelope).sort()).toEqual([
      'content',
      'empty',
      'first',
      'last',
      'number',
      'numberOfElements',
      'pageable',
      'size',
      'sort',
      'totalElements',
      'totalPages',
    ]);
    expect(Object.keys(envelope.pageable).sort()).toEqual(['offset', 'pageNumber', 'pageSize', 'paged', 'sort', 'unpaged']);
    expect(envelope).toEqual({
      totalElements: 5,
      totalPages: 3,
      size: 2,
      content: ['a', 'b'],
      number: 1,
      sort: [sortItem('name', 'DESC')],
      first: false,
      last: false,
      numberOfElements: 2,
      pageable: { offset: 2, sort: [sortItem('name', 'DESC')], pageSize: 2, pageNumber: 1, paged: true, unpaged: false },
      empty: false,
    });
    expect(Object.keys(envelope.sort[0]!).sort()).toEqual(['ascending', 'direction', 'ignoreCase', 'nullHandling', 'property']);
  });

  it('lists every order, ascending ones with ascending true', () => {
    const envelope = pageOf(
      [],
      0,
      request(0, 20, [
        { property: 'lastName', direction: 'ASC' },
        { property: 'email', direction: 'DESC' },
      ]),
    );
    expect(envelope.sort).toEqual([sortItem('lastName', 'ASC'), sortItem('email', 'DESC')]);
    expect(envelope.pageable.sort).toEqual(envelope.sort);
  });

  it('has an empty sort when no order was asked for', () => {
    const envelope = pageOf([1], 1, request(0, 20));
    expect(envelope.sort).toEqual([]);
    expect(envelope.pageable.sort).toEqual([]);
  });

  it('answers page 0 of an empty result: totalPages 0, first, last and empty', () => {
    const envelope = pageOf([], 0, request(0, 20));
    expect(envelope).toMatchObject({
      totalElements: 0,
      totalPages: 0,
      number: 0,
      size: 20,
      numberOfElements: 0,
      first: true,
      last: true,
      empty: true,
      content: [],
    });
    expect(envelope.pageable).toEqual({ offset: 0, sort: [], pageSize: 20, pageNumber: 0, paged: true, unpaged: false });
  });

  it('answers a page past the end of an empty result as not first, last and empty', () => {
    expect(pageOf([], 0, request(2, 20))).toMatchObject({ totalPages: 0, number: 2, first: false, last: true, empty: true });
  });

  it('answers a page past the end: empty content, first false, last true, empty true', () => {
    const envelope = pageOf([], 5, request(3, 2));
    expect(envelope).toMatchObject({ totalElements: 5, totalPages: 3, number: 3, numberOfElements: 0, first: false, last: true, empty: true, content: [] });
    expect(envelope.pageable.offset).toBe(6);
    expect(pageOf([], 5, request(100, 2))).toMatchObject({ first: false, last: true, empty: true });
  });

  it('computes totalPages by rounding up and marks the last page', () => {
    expect(pageOf([1, 2], 5, request(0, 2))).toMatchObject({ totalPages: 3, first: true, last: false, empty: false, numberOfElements: 2 });
    expect(pageOf([5], 5, request(2, 2))).toMatchObject({ totalPages: 3, first: false, last: true, empty: false, numberOfElements: 1 });
    expect(pageOf([1], 1, request(0, 1000))).toMatchObject({ totalPages: 1, first: true, last: true });
  });

  it('handles a total that is an exact multiple of the size', () => {
    expect(pageOf([1, 2], 4, request(0, 2))).toMatchObject({ totalPages: 2, first: true, last: false, empty: false });
    expect(pageOf([3, 4], 4, request(1, 2))).toMatchObject({ totalPages: 2, first: false, last: true, empty: false });
    expect(pageOf([], 4, request(2, 2))).toMatchObject({ totalPages: 2, first: false, last: true, empty: true });
    expect(pageOf([1, 2, 3], 3, request(0, 3))).toMatchObject({ totalPages: 1, first: true, last: true });
  });

  it('reports offset = page × size', () => {
    expect(pageOf([], 100, request(7, 13)).pageable.offset).toBe(91);
    expect(pageOf([], 100, request(7, 13)).pageable).toMatchObject({ pageNumber: 7, pageSize: 13 });
  });
});
