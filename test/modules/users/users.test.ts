import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, UUID, createTestApp, expectProblem, type TestApp, type UserBody } from '../../helpers/app.js';
import { PAGEABLE_KEYS, PAGE_KEYS as ENVELOPE_KEYS, SORT_KEYS, type Page, type SortItem } from '../../helpers/contract.js';

const ADMIN_VIEW_KEYS = ['email', 'enabled', 'firstName', 'hasAvatar', 'id', 'lastName', 'ldap', 'role'];
const USER_VIEW_KEYS = ['email', 'firstName', 'hasAvatar', 'id', 'lastName'];

type Query = Record<string, string | string[]>;

const sortItem = (property: string, direction: 'ASC' | 'DESC'): SortItem => ({
  direction,
  nullHandling: 'NATIVE',
  ascending: direction === 'ASC',
  property,
  ignoreCase: false,
});

const sortedKeys = (value: object): string[] => Object.keys(value).sort();

/** Every member of an admin's view of a user, with its type. */
function expectAdminView(user: UserBody): void {
  expect(sortedKeys(user)).toEqual(ADMIN_VIEW_KEYS);
  expect(user.id).toMatch(UUID);
  expect(typeof user.firstName).toBe('string');
  expect(typeof user.lastName).toBe('string');
  expect(typeof user.email).toBe('string');
  expect(typeof user.enabled).toBe('boolean');
  expect(typeof user.ldap).toBe('boolean');
  expect(['USER', 'ADMIN']).toContain(user.role);
  expect(typeof user.hasAvatar).toBe('boolean');
}

/** A non-admin's view: the admin-only members are absent (not null, not false: absent). */
function expectUserView(user: UserBody): void {
  expect(sortedKeys(user)).toEqual(USER_VIEW_KEYS);
  expect(user.id).toMatch(UUID);
  expect(typeof user.firstName).toBe('string');
  expect(typeof user.lastName).toBe('string');
  expect(typeof user.email).toBe('string');
  expect(typeof user.hasAvatar).toBe('boolean');
}

describe('users', () => {
  let t: TestApp;
  let admin: string;
  let adminId: string;
  let userToken: string;
  let userId: string;
  const userPassword = 'plain-user-password-1';

  /** The paging fixture: five users found by search=paging.test, with a tie on (lastName, firstName). */
  const pagingInput = [
    { firstName: 'Anna', lastName: 'Berg', email: 'p-anna.berg@paging.test' },
    { firstName: 'Carl', lastName: 'Adams', email: 'p-carl.adams@paging.test' },
    { firstName: 'Bea', lastName: 'Adams', email: 'p-bea.adams@paging.test' },
    { firstName: 'Dora', lastName: 'Cole', email: 'p-dora.cole.1@paging.test' },
    { firstName: 'Dora', lastName: 'Cole', email: 'p-dora.cole.2@paging.test' },
  ];
  let paging: UserBody[] = [];
  /** The fixture in the documented default order: lastName, firstName, id. */
  let pagingDefaultOrder: string[] = [];

  const get = (url: string, token?: string, query?: Query) => t.request({ method: 'GET', url, token, ...(query ? { query } : {}) });

  async function list(token: string, query?: Query): Promise<Page<UserBody>> {
    const response = await get('/api/users', token, query);
    if (response.statusCode !== 200) throw new Error(`list users: ${response.statusCode} ${response.body}`);
    return response.json<Page<UserBody>>();
  }

  async function listUrl(token: string, url: string): Promise<Page<UserBody>> {
    const response = await t.request({ method: 'GET', url, token });
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    return response.json<Page<UserBody>>();
  }

  const ids = (page: Page<UserBody>) => page.content.map((user) => user.id);
  const emails = (page: Page<UserBody>) => page.content.map((user) => user.email);
  const fieldsOf = (problem: { errors?: { field: string }[] }) => problem.errors?.map((error) => error.field) ?? [];

  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '100000' } });
    admin = await t.adminToken();
    adminId = (await get('/api/self', admin)).json<UserBody>().id;
    userId = (await t.createUser({ email: 'plain.user@example.test', firstName: 'Plain', lastName: 'User', password: userPassword })).id;
    userToken = (await t.login('plain.user@example.test', userPassword)).accessToken;
    paging = [];
    for (const input of pagingInput) paging.push(await t.createUser(input));
    const byName = (a: UserBody, b: UserBody) =>
      a.lastName !== b.lastName
        ? a.lastName < b.lastName
          ? -1
          : 1
        : a.firstName !== b.firstName
          ? a.firstName < b.firstName
            ? -1
            : 1
          : a.id < b.id
            ? -1
            : 1;
    pagingDefaultOrder = [...paging].sort(byName).map((user) => user.email);
    // Spelled out, so that a wrong comparator above cannot hide a wrong order below.
    const [dora1, dora2] = [paging[3]!, paging[4]!].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(pagingDefaultOrder).toEqual(['p-bea.adams@paging.test', 'p-carl.adams@paging.test', 'p-anna.berg@paging.test', dora1!.email, dora2!.email]);
  });
  afterAll(() => t.close());

  describe('response shape', () => {
    it('gives an admin every member of User, with its type', async () => {
      const response = await get(`/api/users/${userId}`, admin);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const user = response.json<UserBody>();
      expectAdminView(user);
      expect(user).toEqual({
        id: userId,
        firstName: 'Plain',
        lastName: 'User',
        email: 'plain.user@example.test',
        enabled: true,
        ldap: false,
        role: 'USER',
        hasAvatar: false,
      });

      const page = await list(admin, { size: '1000' });
      expect(page.content.length).toBeGreaterThanOrEqual(7);
      for (const item of page.content) expectAdminView(item);
      expect(page.content.find((item) => item.email === ADMIN_EMAIL)).toMatchObject({ id: adminId, role: 'ADMIN', enabled: true, ldap: false });
      expect(page.content.find((item) => item.id === userId)).toEqual(user);
    });

    it('leaves enabled, ldap and role out of every user a USER receives, admins included', async () => {
      const response = await get('/api/users', userToken, { size: '1000' });
      expect(response.statusCode).toBe(200);
      const page = response.json<Page<UserBody>>();
      expect(page.content.length).toBeGreaterThanOrEqual(7);
      for (const item of page.content) expectUserView(item);
      expect(page.content.find((item) => item.email === ADMIN_EMAIL)).toEqual({
        id: adminId,
        firstName: 'Admin',
        lastName: 'Deskbook',
        email: ADMIN_EMAIL,
        hasAvatar: false,
      });
      expect(response.body).not.toMatch(/"(role|enabled|ldap)"/);

      for (const id of [adminId, userId, paging[0]!.id]) {
        const one = await get(`/api/users/${id}`, userToken);
        expect(one.statusCode).toBe(200);
        expectUserView(one.json<UserBody>());
        expect(one.body).not.toMatch(/"(role|enabled|ldap)"/);
      }
    });

    it('answers 401 without a token', async () => {
      expectProblem(await get('/api/users'), 401, 'UNAUTHENTICATED');
      expectProblem(await get(`/api/users/${userId}`), 401, 'UNAUTHENTICATED');
    });
  });

  describe('page envelope', () => {
    it('has exactly the members of the User (docs/api.md#user), with their types', async () => {
      const page = await list(admin, { sort: 'lastName,desc' });
      expect(sortedKeys(page)).toEqual(ENVELOPE_KEYS);
      expect(sortedKeys(page.pageable)).toEqual(PAGEABLE_KEYS);
      expect(page.sort).toHaveLength(1);
      expect(sortedKeys(page.sort[0]!)).toEqual(SORT_KEYS);
      expect(page.pageable.sort).toHaveLength(1);
      expect(sortedKeys(page.pageable.sort[0]!)).toEqual(SORT_KEYS);
      for (const member of ['totalElements', 'totalPages', 'size', 'number', 'numberOfElements'] as const) expect(Number.isInteger(page[member])).toBe(true);
      for (const member of ['first', 'last', 'empty'] as const) expect(typeof page[member]).toBe('boolean');
      for (const member of ['offset', 'pageSize', 'pageNumber'] as const) expect(Number.isInteger(page.pageable[member])).toBe(true);
      expect(page.pageable.paged).toBe(true);
      expect(page.pageable.unpaged).toBe(false);
      expect(Array.isArray(page.content)).toBe(true);
    });

    it('defaults to page 0 (0-based) of size 20, no sort', async () => {
      const all = await list(admin, { size: '1000' });
      const page = await list(admin);
      expect(page).toMatchObject({
        number: 0,
        size: 20,
        first: true,
        sort: [],
        totalElements: all.totalElements,
        numberOfElements: Math.min(20, all.totalElements),
      });
      expect(page.pageable).toEqual({ offset: 0, sort: [], pageSize: 20, pageNumber: 0, paged: true, unpaged: false });
      expect(page.totalPages).toBe(Math.ceil(all.totalElements / 20));
      // `pageable` may be omitted, or sent empty.
      expect(await list(admin, { pageable: '{}' })).toEqual(page);
    });

    it('answers an empty result with totalPages 0', async () => {
      const page = await list(admin, { search: 'no-such-user-anywhere' });
      expect(page).toEqual({
        totalElements: 0,
        totalPages: 0,
        size: 20,
        content: [],
        number: 0,
        sort: [],
        first: true,
        last: true,
        numberOfElements: 0,
        pageable: { offset: 0, sort: [], pageSize: 20, pageNumber: 0, paged: true, unpaged: false },
        empty: true,
      });
    });

    it('answers a page past the end with empty content, first false, last true, empty true', async () => {
      const page = await list(admin, { search: 'paging.test', page: '3', size: '2' });
      expect(page).toMatchObject({
        content: [],
        totalElements: 5,
        totalPages: 3,
        number: 3,
        size: 2,
        numberOfElements: 0,
        first: false,
        last: true,
        empty: true,
      });
      expect(page.pageable).toMatchObject({ offset: 6, pageNumber: 3, pageSize: 2 });
      expect(await list(admin, { search: 'paging.test', page: '999999' })).toMatchObject({ content: [], first: false, last: true, empty: true });
    });

    it('marks the first and the last page', async () => {
      const first = await list(admin, { search: 'paging.test', page: '0', size: '2' });
      expect(first).toMatchObject({ number: 0, first: true, last: false, empty: false, numberOfElements: 2, totalPages: 3, totalElements: 5 });
      const last = await list(admin, { search: 'paging.test', page: '2', size: '2' });
      expect(last).toMatchObject({ number: 2, first: false, last: true, empty: false, numberOfElements: 1, totalPages: 3 });
      const exact = await list(admin, { search: 'paging.test', page: '0', size: '5' });
      expect(exact).toMatchObject({ first: true, last: true, totalPages: 1, numberOfElements: 5 });
    });
  });

  describe('paging parameters', () => {
    const secondPageOfTwo = () => pagingDefaultOrder.slice(2, 4);

    const expectSecondPage = (page: Page<UserBody>) => {
      expect(emails(page)).toEqual(secondPageOfTwo());
      expect(page).toMatchObject({
        number: 1,
        size: 2,
        totalElements: 5,
        totalPages: 3,
        first: false,
        last: false,
        numberOfElements: 2,
        empty: false,
        sort: [],
      });
      expect(page.pageable).toEqual({ offset: 2, sort: [], pageSize: 2, pageNumber: 1, paged: true, unpaged: false });
    };

    it('takes plain page and size', async () => {
      expectSecondPage(await list(admin, { search: 'paging.test', page: '1', size: '2' }));
      expectSecondPage(await listUrl(admin, '/api/users?search=paging.test&page=1&size=2'));
    });

    it('takes pageable[page] and pageable[size], with brackets encoded or not', async () => {
      expectSecondPage(await list(admin, { search: 'paging.test', 'pageable[page]': '1', 'pageable[size]': '2' }));
      expectSecondPage(await listUrl(admin, '/api/users?search=paging.test&pageable[page]=1&pageable[size]=2'));
      expectSecondPage(await listUrl(admin, '/api/users?search=paging.test&pageable%5Bpage%5D=1&pageable%5Bsize%5D=2'));
      expectSecondPage(await listUrl(admin, '/api/users?search=paging.test&pageable%5bpage%5d=1&pageable%5bsize%5d=2'));
    });

    it('takes pageable[sort]', async () => {
      const page = await listUrl(admin, '/api/users?search=paging.test&pageable[sort]=email,desc&pageable[size]=2');
      expect(emails(page)).toEqual([...pagingDefaultOrder].sort().reverse().slice(0, 2));
      expect(page.sort).toEqual([sortItem('email', 'DESC')]);
    });

    it('takes one JSON-encoded pageable', async () => {
      const byEmailDesc = pagingInput
        .map((input) => input.email)
        .sort()
        .reverse();
      const check = (page: Page<UserBody>) => {
        expect(emails(page)).toEqual(byEmailDesc.slice(2, 4));
        expect(page).toMatchObject({ number: 1, size: 2, totalElements: 5, totalPages: 3, first: false, last: false });
        expect(page.sort).toEqual([sortItem('email', 'DESC')]);
        expect(page.pageable).toEqual({ offset: 2, sort: [sortItem('email', 'DESC')], pageSize: 2, pageNumber: 1, paged: true, unpaged: false });
      };
      check(await list(admin, { search: 'paging.test', pageable: '{"page":1,"size":2,"sort":["email,desc"]}' }));
      check(await listUrl(admin, `/api/users?search=paging.test&pageable=${encodeURIComponent('{"page":1,"size":2,"sort":["email,desc"]}')}`));
    });

    it('lets plain page and size win over the pageable forms', async () => {
      expectSecondPage(
        await list(admin, { search: 'paging.test', page: '1', size: '2', 'pageable[page]': '0', 'pageable[size]': '5', pageable: '{"page":2,"size":1}' }),
      );
    });

    it('clamps size to 1000', async () => {
      for (const query of [{ size: '5000' }, { 'pageable[size]': '5000' }, { pageable: '{"size":5000}' }] as Query[]) {
        const page = await list(admin, query);
        expect(page.size).toBe(1000);
        expect(page.pageable.pageSize).toBe(1000);
        expect(page.numberOfElements).toBe(page.totalElements);
        expect(page.totalPages).toBe(1);
      }
    });

    it('refuses a negative page, a size below 1 and non-numbers with 400 VALIDATION_FAILED', async () => {
      const cases: [Query, string][] = [
        [{ page: '-1' }, 'page'],
        [{ size: '0' }, 'size'],
        [{ size: '-3' }, 'size'],
        [{ size: 'abc' }, 'size'],
        [{ page: '1.5' }, 'page'],
        [{ page: 'one' }, 'page'],
        [{ size: '' }, 'size'],
        [{ 'pageable[page]': '-1' }, 'pageable[page]'],
        [{ 'pageable[size]': '0' }, 'pageable[size]'],
        [{ 'pageable[size]': 'abc' }, 'pageable[size]'],
        [{ pageable: '{"page":-1}' }, 'pageable.page'],
        [{ pageable: '{"size":0}' }, 'pageable.size'],
        [{ pageable: '{"size":"abc"}' }, 'pageable.size'],
        [{ pageable: '{"page":1.5}' }, 'pageable.page'],
        [{ pageable: 'page=1' }, 'pageable'],
        [{ pageable: '[1]' }, 'pageable'],
        [{ pageable: '{"offset":3}' }, 'pageable'],
      ];
      for (const [query, field] of cases) {
        const problem = expectProblem(await get('/api/users', admin, query), 400, 'VALIDATION_FAILED');
        expect(fieldsOf(problem), JSON.stringify(query)).toContain(field);
      }
      for (const url of ['/api/users?page=-1', '/api/users?size=0', '/api/users?size=abc', '/api/users?page=1.5', '/api/users?pageable[page]=-1']) {
        expectProblem(await t.request({ method: 'GET', url, token: admin }), 400, 'VALIDATION_FAILED');
      }
    });

    it('refuses sorting by a property users do not have', async () => {
      for (const query of [
        { sort: 'nope' },
        { sort: 'password' },
        { sort: 'passwordHash,desc' },
        { 'pageable[sort]': 'salary' },
        { pageable: '{"sort":["shoeSize"]}' },
      ] as Query[]) {
        expectProblem(await get('/api/users', admin, query), 400, 'VALIDATION_FAILED');
      }
    });

    it('refuses SQL-looking sort values with 400, and the users table still works afterwards', async () => {
      const before = await list(admin, { size: '1000' });
      const values = [
        'email;drop table users',
        'email desc nulls first --',
        '(select 1)',
        'email;drop table users,desc',
        "email'--",
        'lastName) --',
        'email desc',
      ];
      for (const value of values) {
        for (const query of [{ sort: value }, { 'pageable[sort]': value }, { pageable: JSON.stringify({ sort: [value] }) }] as Query[]) {
          // Not expectProblem: its leak check flags the word "select", which the detail echoes from the request.
          const response = await get('/api/users', admin, query);
          expect(response.statusCode).toBe(400);
          expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
          const problem = response.json<{ code: string; errors: { field: string }[] }>();
          expect(problem.code).toBe('VALIDATION_FAILED');
          expect(problem.errors).toHaveLength(1);
          expect(response.body).not.toMatch(/syntax error|relation|postgres|node_modules|\bat .+\(.+:\d+:\d+\)/i);
        }
      }
      expectProblem(await t.request({ method: 'GET', url: '/api/users?sort=email;drop%20table%20users', token: admin }), 400, 'VALIDATION_FAILED');
      const after = await list(admin, { size: '1000' });
      expect(after.totalElements).toBe(before.totalElements);
      expect(ids(after)).toEqual(ids(before));
      expect((await get(`/api/users/${userId}`, admin)).statusCode).toBe(200);
    });

    it('honours sort=lastName,desc and echoes it in sort and pageable.sort', async () => {
      const page = await list(admin, { search: 'paging.test', sort: 'lastName,desc' });
      // Ties on lastName keep the default order (firstName, id).
      const [dora1, dora2] = pagingDefaultOrder.slice(3);
      expect(emails(page)).toEqual([dora1, dora2, 'p-anna.berg@paging.test', 'p-bea.adams@paging.test', 'p-carl.adams@paging.test']);
      expect(page.sort).toEqual([{ direction: 'DESC', nullHandling: 'NATIVE', ascending: false, property: 'lastName', ignoreCase: false }]);
      expect(page.pageable.sort).toEqual(page.sort);
    });

    it('honours several sorts in the order given and echoes them all', async () => {
      const [dora1, dora2] = [...pagingInput.slice(3)].map((input) => input.email).sort();
      const page = await list(admin, { search: 'paging.test', sort: ['firstName,desc', 'email'] });
      expect(emails(page)).toEqual([dora1, dora2, 'p-carl.adams@paging.test', 'p-bea.adams@paging.test', 'p-anna.berg@paging.test']);
      expect(page.sort).toEqual([sortItem('firstName', 'DESC'), sortItem('email', 'ASC')]);
      expect(page.pageable.sort).toEqual(page.sort);

      const reversed = await list(admin, { search: 'paging.test', sort: ['firstName,desc', 'email,DESC'] });
      expect(emails(reversed)).toEqual([dora2, dora1, 'p-carl.adams@paging.test', 'p-bea.adams@paging.test', 'p-anna.berg@paging.test']);

      const raw = await listUrl(admin, '/api/users?search=paging.test&sort=lastName&sort=firstName,desc');
      expect(emails(raw)).toEqual([
        'p-carl.adams@paging.test',
        'p-bea.adams@paging.test',
        'p-anna.berg@paging.test',
        pagingDefaultOrder[3],
        pagingDefaultOrder[4],
      ]);
      expect(raw.sort).toEqual([sortItem('lastName', 'ASC'), sortItem('firstName', 'DESC')]);

      const combined = await list(admin, { search: 'paging.test', sort: 'lastName,firstName,desc' });
      expect(emails(combined)).toEqual([
        pagingDefaultOrder[3],
        pagingDefaultOrder[4],
        'p-anna.berg@paging.test',
        'p-carl.adams@paging.test',
        'p-bea.adams@paging.test',
      ]);
      expect(combined.sort).toEqual([sortItem('lastName', 'DESC'), sortItem('firstName', 'DESC')]);
    });

    it('orders by lastName, firstName, id without a sort', async () => {
      expect(emails(await list(admin, { search: 'paging.test' }))).toEqual(pagingDefaultOrder);
      const pages = [];
      for (let page = 0; page < 3; page++) pages.push(...emails(await list(admin, { search: 'paging.test', page: String(page), size: '2' })));
      expect(pages).toEqual(pagingDefaultOrder);
    });

    it('is stable: walking every page of size 2 gives every user exactly once, in the order of one big page', async () => {
      const all = await list(admin, { size: '1000' });
      expect(all.totalElements).toBeGreaterThanOrEqual(7);
      const walked: string[] = [];
      let pages = 0;
      for (let page = 0; ; page++) {
        const current = await list(admin, { page: String(page), size: '2' });
        expect(current.totalElements).toBe(all.totalElements);
        expect(current.totalPages).toBe(Math.ceil(all.totalElements / 2));
        walked.push(...ids(current));
        pages++;
        if (current.last) break;
        expect(pages).toBeLessThan(1000);
      }
      expect(pages).toBe(Math.ceil(all.totalElements / 2));
      expect(new Set(walked).size).toBe(walked.length);
      expect(walked).toEqual(ids(all));
      // And the big page itself is in the documented order (lastName, then firstName, then id).
      const sortedByName = await list(admin, { size: '1000', sort: ['lastName', 'firstName'] });
      expect(ids(sortedByName)).toEqual(ids(all));
    });
  });

  describe('admin-only sorting and filtering', () => {
    let disabledId: string;
    let ldapId: string;
    let secondAdminId: string;

    beforeAll(async () => {
      disabledId = (await t.createUser({ email: 'filter.disabled@example.test', firstName: 'Filter', lastName: 'Disabled', enabled: false })).id;
      ldapId = (await t.createUser({ email: 'filter.ldap@example.test', firstName: 'Filter', lastName: 'Directory', ldap: true })).id;
      secondAdminId = (await t.createUser({ email: 'filter.admin@example.test', firstName: 'Filter', lastName: 'Admin', role: 'ADMIN' })).id;
    });

    it('refuses a USER sorting by role, enabled or ldap with 400 (not sortable for them), in every form', async () => {
      for (const property of ['role', 'enabled', 'ldap']) {
        for (const query of [
          { sort: property },
          { sort: `${property},desc` },
          { 'pageable[sort]': property },
          { pageable: JSON.stringify({ sort: [`${property},asc`] }) },
        ] as Query[]) {
          const problem = expectProblem(await get('/api/users', userToken, query), 400, 'VALIDATION_FAILED');
          expect(String(problem.detail)).toContain(property);
        }
      }
      // The sortable ones work for a USER.
      for (const property of ['firstName', 'lastName', 'email']) {
        const page = await list(userToken, { sort: `${property},desc` });
        expect(page.sort).toEqual([sortItem(property, 'DESC')]);
      }
    });

    it('refuses a USER filtering by role, enabled or ldap with 403', async () => {
      for (const query of [{ role: 'ADMIN' }, { role: 'USER' }, { enabled: 'true' }, { enabled: 'false' }, { ldap: 'true' }, { ldap: 'false' }] as Query[]) {
        expectProblem(await get('/api/users', userToken, query), 403, 'FORBIDDEN');
      }
    });

    it('lets an admin sort by role, enabled and ldap', async () => {
      for (const property of ['role', 'enabled', 'ldap'] as const) {
        const ascending = await list(admin, { size: '1000', sort: `${property},asc` });
        const descending = await list(admin, { size: '1000', sort: `${property},desc` });
        expect(ascending.sort).toEqual([sortItem(property, 'ASC')]);
        expect(descending.sort).toEqual([sortItem(property, 'DESC')]);
        const asc = ascending.content.map((user) => String(user[property]));
        const desc = descending.content.map((user) => String(user[property]));
        // Grouped: the values form runs, and descending order is ascending order reversed.
        const runs = (values: string[]) => values.filter((value, index) => index === 0 || values[index - 1] !== value);
        expect(runs(asc)).toHaveLength(2);
        expect(runs(desc)).toEqual([...runs(asc)].reverse());
        expect([...desc].sort()).toEqual([...asc].sort());
      }
      const byEnabled = await list(admin, { size: '1000', sort: 'enabled,asc' });
      expect(byEnabled.content[0]!.enabled).toBe(false);
      const byLdap = await list(admin, { size: '1000', sort: 'ldap,desc' });
      expect(byLdap.content[0]!.ldap).toBe(true);
    });

    it('lets an admin filter by role, enabled and ldap', async () => {
      const admins = await list(admin, { size: '1000', role: 'ADMIN' });
      expect(admins.content.every((user) => user.role === 'ADMIN')).toBe(true);
      expect(ids(admins)).toEqual(expect.arrayContaining([adminId, secondAdminId]));
      expect(admins.totalElements).toBe(admins.content.length);

      const plainUsers = await list(admin, { size: '1000', role: 'USER' });
      expect(plainUsers.content.every((user) => user.role === 'USER')).toBe(true);
      expect(ids(plainUsers)).toContain(userId);
      const all = await list(admin, { size: '1000' });
      expect(admins.totalElements + plainUsers.totalElements).toBe(all.totalElements);

      const disabled = await list(admin, { size: '1000', enabled: 'false' });
      expect(ids(disabled)).toEqual([disabledId]);
      const enabled = await list(admin, { size: '1000', enabled: 'true' });
      expect(enabled.totalElements).toBe(all.totalElements - 1);
      expect(enabled.content.every((user) => user.enabled === true)).toBe(true);

      const directory = await list(admin, { size: '1000', ldap: 'true' });
      expect(ids(directory)).toEqual([ldapId]);
      const combined = await list(admin, { size: '1000', ldap: 'false', role: 'ADMIN', search: 'filter' });
      expect(ids(combined)).toEqual([secondAdminId]);
    });

    it('refuses filter values of the wrong type', async () => {
      for (const query of [{ role: 'ROOT' }, { role: 'admin' }, { enabled: 'maybe' }, { ldap: '2' }] as Query[]) {
        expectProblem(await get('/api/users', admin, query), 400, 'VALIDATION_FAILED');
      }
    });
  });

  describe('search', () => {
    let percentId: string;
    let underscoreId: string;
    let backslashId: string;

    beforeAll(async () => {
      percentId = (await t.createUser({ email: 'fifty@literal.test', firstName: 'Fifty', lastName: 'Off50%' })).id;
      underscoreId = (await t.createUser({ email: 'under_score@literal.test', firstName: 'Under', lastName: 'Score' })).id;
      await t.createUser({ email: 'underxscore@literal.test', firstName: 'Underx', lastName: 'Scorex' });
      await t.createUser({ email: '500-club@literal.test', firstName: 'Five', lastName: 'Hundred' });
      backslashId = (await t.createUser({ email: 'slash@literal.test', firstName: 'Back\\slash', lastName: 'Person' })).id;
    });

    it('matches a substring of first name, last name or e-mail, in any case', async () => {
      const anna = paging[0]!.id;
      for (const search of ['ANNA', 'anna', 'nN', 'BERG', 'erg', 'P-ANNA.BERG@PAGING.TEST', 'anna.berg@']) {
        const page = await list(admin, { search });
        expect(ids(page), search).toContain(anna);
        expect(
          page.content.every((user) => `${user.firstName}|${user.lastName}|${user.email}`.toLowerCase().includes(search.toLowerCase())),
          search,
        ).toBe(true);
      }
      expect(ids(await list(admin, { search: 'paging.TEST' })).sort()).toEqual(paging.map((user) => user.id).sort());
      // USERs may search too.
      expect(ids(await list(userToken, { search: 'bErG' }))).toEqual([anna]);
    });

    it('does not match across the fields (no concatenation)', async () => {
      expect((await list(admin, { search: 'AnnaBerg' })).totalElements).toBe(0);
    });

    it('treats % and _ literally', async () => {
      const percent = await list(admin, { search: '50%' });
      expect(ids(percent)).toEqual([percentId]);
      expect(ids(await list(admin, { search: '%' }))).toEqual([percentId]);
      const all = await list(admin, { size: '1000' });
      expect((await list(admin, { search: '%', size: '1000' })).totalElements).toBeLessThan(all.totalElements);

      expect(ids(await list(admin, { search: 'under_score' }))).toEqual([underscoreId]);
      expect(ids(await list(admin, { search: '_' }))).toEqual([underscoreId]);
      expect(ids(await list(admin, { search: 'r_s' }))).toEqual([underscoreId]);
      expect(ids(await list(admin, { search: '\\' }))).toEqual([backslashId]);
      expect(ids(await list(admin, { search: 'k\\s' }))).toEqual([backslashId]);
      expect((await list(admin, { search: '%%' })).totalElements).toBe(0);
      expect((await list(admin, { search: '_%' })).totalElements).toBe(0);
      expect((await list(admin, { search: "'; drop table users; --" })).totalElements).toBe(0);
      expect((await list(admin, { size: '1000' })).totalElements).toBe(all.totalElements);
    });

    it('combines with paging', async () => {
      const page = await list(admin, { search: 'PAGING', size: '2', page: '2' });
      expect(page).toMatchObject({ totalElements: 5, totalPages: 3, numberOfElements: 1, last: true });
      expect(emails(page)).toEqual(pagingDefaultOrder.slice(4));
    });
  });

  describe('POST /api/users', () => {
    it('creates a user with role USER, enabled true and ldap false by default, answering 200 with what GET answers', async () => {
      const response = await t.request({
        method: 'POST',
        url: '/api/users',
        token: admin,
        payload: { firstName: 'New', lastName: 'Person', email: 'New.Person@Example.test' },
      });
      expect(response.statusCode).toBe(200);
      const created = response.json<UserBody>();
      expectAdminView(created);
      expect(created).toEqual({
        id: expect.stringMatching(UUID),
        firstName: 'New',
        lastName: 'Person',
        email: 'New.Person@Example.test',
        enabled: true,
        ldap: false,
        role: 'USER',
        hasAvatar: false,
      });
      const fetched = await get(`/api/users/${created.id}`, admin);
      expect(fetched.json()).toEqual(created);
      const listed = await list(admin, { search: 'new.person@' });
      expect(listed.content).toEqual([created]);
    });

    it('takes role, enabled and ldap', async () => {
      const response = await t.request({
        method: 'POST',
        url: '/api/users',
        token: admin,
        payload: { firstName: 'Dir', lastName: 'Admin', email: 'dir.admin@example.test', role: 'ADMIN', enabled: false, ldap: true },
      });
      expect(response.statusCode).toBe(200);
      const created = response.json<UserBody>();
      expect(created).toMatchObject({ role: 'ADMIN', enabled: false, ldap: true });
      expect((await get(`/api/users/${created.id}`, admin)).json()).toEqual(created);
    });

    it('gives every new user a distinct id', async () => {
      const a = await t.createUser({ email: 'distinct.a@example.test' });
      const b = await t.createUser({ email: 'distinct.b@example.test' });
      expect(a.id).not.toBe(b.id);
    });

    it('refuses an e-mail address that is taken in another case with 409 EMAIL_TAKEN', async () => {
      await t.createUser({ email: 'Dup.Person@Example.test' });
      const before = (await list(admin, { size: '1000' })).totalElements;
      for (const email of ['dup.person@example.test', 'DUP.PERSON@EXAMPLE.TEST', 'Dup.Person@Example.test', ADMIN_EMAIL.toUpperCase()]) {
        const response = await t.request({ method: 'POST', url: '/api/users', token: admin, payload: { firstName: 'Dup', lastName: 'Again', email } });
        expectProblem(response, 409, 'EMAIL_TAKEN');
      }
      expect((await list(admin, { size: '1000' })).totalElements).toBe(before);
    });

    it('refuses members it does not take with 400 naming them', async () => {
      const base = { firstName: 'Extra', lastName: 'Member', email: 'extra.member@example.test' };
      for (const extra of [
        { id: '00000000-0000-4000-8000-000000000000' },
        { password: 'secret-password-1' },
        { createdAt: '2024-01-01T00:00:00Z' },
        { hasAvatar: true },
        { passwordHash: 'x' },
      ]) {
        const response = await t.request({ method: 'POST', url: '/api/users', token: admin, payload: { ...base, ...extra } });
        const problem = expectProblem(response, 400, 'VALIDATION_FAILED');
        expect(fieldsOf(problem)).toContain(Object.keys(extra)[0]);
      }
      expect((await list(admin, { search: 'extra.member' })).totalElements).toBe(0);
    });

    it('refuses missing members and values of the wrong type or format with 400 naming the field', async () => {
      const base = { firstName: 'Bad', lastName: 'Value', email: 'bad.value@example.test' };
      const cases: [Record<string, unknown>, string][] = [
        [{ ...base, role: 'ROOT' }, 'role'],
        [{ ...base, role: 'admin' }, 'role'],
        [{ ...base, firstName: 5 }, 'firstName'],
        [{ ...base, lastName: null }, 'lastName'],
        [{ ...base, email: 'not-an-email' }, 'email'],
        [{ ...base, email: 42 }, 'email'],
        [{ ...base, firstName: '  ' }, 'firstName'],
        [{ ...base, firstName: '' }, 'firstName'],
        [{ ...base, lastName: '\t\n' }, 'lastName'],
        [{ ...base, firstName: 'x'.repeat(201) }, 'firstName'],
        [{ ...base, lastName: 'y'.repeat(201) }, 'lastName'],
        [{ ...base, email: `${'e'.repeat(190)}@example.test` }, 'email'],
        [{ ...base, enabled: 'true' }, 'enabled'],
        [{ ...base, ldap: 1 }, 'ldap'],
        [{ lastName: 'Value', email: 'bad.value@example.test' }, 'firstName'],
        [{ firstName: 'Bad', email: 'bad.value@example.test' }, 'lastName'],
        [{ firstName: 'Bad', lastName: 'Value' }, 'email'],
      ];
      for (const [payload, field] of cases) {
        const response = await t.request({ method: 'POST', url: '/api/users', token: admin, payload });
        const problem = expectProblem(response, 400, 'VALIDATION_FAILED');
        expect(fieldsOf(problem), JSON.stringify(payload).slice(0, 100)).toContain(field);
      }
      for (const payload of ['[]', '"user"', 'null', '{"firstName":']) {
        const response = await t.request({ method: 'POST', url: '/api/users', token: admin, payload, headers: { 'content-type': 'application/json' } });
        expectProblem(response, 400);
      }
      expect((await list(admin, { search: 'bad.value' })).totalElements).toBe(0);
      // 200 characters are fine.
      const long = await t.request({
        method: 'POST',
        url: '/api/users',
        token: admin,
        payload: { ...base, firstName: 'x'.repeat(200), lastName: 'y'.repeat(200) },
      });
      expect(long.statusCode).toBe(200);
      expect(long.json()).toMatchObject({ firstName: 'x'.repeat(200), lastName: 'y'.repeat(200) });
    });

    it('answers 403 FORBIDDEN to a USER and 401 without a token, creating nothing', async () => {
      const payload = { firstName: 'Not', lastName: 'Allowed', email: 'not.allowed@example.test' };
      expectProblem(await t.request({ method: 'POST', url: '/api/users', token: userToken, payload }), 403, 'FORBIDDEN');
      expectProblem(await t.request({ method: 'POST', url: '/api/users', token: userToken, payload: { ...payload, role: 'ADMIN' } }), 403, 'FORBIDDEN');
      const anonymous = await t.request({ method: 'POST', url: '/api/users', payload });
      expectProblem(anonymous, 401, 'UNAUTHENTICATED');
      expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer/);
      expect((await list(admin, { search: 'not.allowed' })).totalElements).toBe(0);
    });
  });

  describe('GET /api/users/{id}', () => {
    it('refuses a malformed UUID with 400', async () => {
      for (const id of ['not-a-uuid', '123', '00000000-0000-0000-0000-00000000000g', `${userId}x`, "1' or '1'='1"]) {
        const problem = expectProblem(await get(`/api/users/${encodeURIComponent(id)}`, admin), 400, 'VALIDATION_FAILED');
        expect(fieldsOf(problem)).toContain('id');
      }
      expectProblem(await get('/api/users/not-a-uuid', userToken), 400, 'VALIDATION_FAILED');
    });

    it('answers 404 NOT_FOUND for an unknown id, to admins and users alike', async () => {
      for (const token of [admin, userToken]) {
        expectProblem(await get('/api/users/00000000-0000-4000-8000-000000000000', token), 404, 'NOT_FOUND');
        expectProblem(await get('/api/users/ffffffff-ffff-4fff-bfff-ffffffffffff', token), 404, 'NOT_FOUND');
      }
    });

    it('accepts the UUID in upper case', async () => {
      const response = await get(`/api/users/${userId.toUpperCase()}`, admin);
      expect(response.statusCode).toBe(200);
      expect(response.json<UserBody>().id).toBe(userId);
    });
  });

  describe('PUT /api/users/{id}', () => {
    const put = (id: string, payload: unknown, token = admin) =>
      t.request({ method: 'PUT', url: `/api/users/${id}`, token, payload: payload as Record<string, unknown> });

    it('changes only the members sent and answers the user as it now is', async () => {
      const user = await t.createUser({ email: 'partial@example.test', firstName: 'Part', lastName: 'Ial' });
      const first = await put(user.id, { firstName: 'Changed' });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ ...user, firstName: 'Changed' });
      const second = await put(user.id, { lastName: 'Also', role: 'ADMIN' });
      expect(second.json()).toEqual({ ...user, firstName: 'Changed', lastName: 'Also', role: 'ADMIN' });
      const third = await put(user.id, { email: 'partial.moved@example.test', role: 'USER' });
      expect(third.json()).toEqual({ ...user, firstName: 'Changed', lastName: 'Also', email: 'partial.moved@example.test' });
      const unchanged = await put(user.id, {});
      expect(unchanged.statusCode).toBe(200);
      expect(unchanged.json()).toEqual(third.json());
      expect((await get(`/api/users/${user.id}`, admin)).json()).toEqual(third.json());
    });

    it("refuses another user's e-mail in another case with 409 EMAIL_TAKEN, changing nothing", async () => {
      const a = await t.createUser({ email: 'owner.a@example.test', firstName: 'Owner', lastName: 'A' });
      const b = await t.createUser({ email: 'owner.b@example.test', firstName: 'Owner', lastName: 'B' });
      for (const email of ['OWNER.A@example.test', 'owner.a@EXAMPLE.TEST', ADMIN_EMAIL.toUpperCase()]) {
        expectProblem(await put(b.id, { email, firstName: 'Renamed' }), 409, 'EMAIL_TAKEN');
      }
      expect((await get(`/api/users/${b.id}`, admin)).json()).toEqual(b);
      expect((await get(`/api/users/${a.id}`, admin)).json()).toEqual(a);
      // Changing the case of one's own address is fine.
      const recased = await put(a.id, { email: 'Owner.A@Example.test' });
      expect(recased.statusCode).toBe(200);
      expect(recased.json()).toEqual({ ...a, email: 'Owner.A@Example.test' });
    });

    it('answers 403 to a USER, even for their own id, and changes nothing', async () => {
      expectProblem(await put(userId, { firstName: 'Hacked' }, userToken), 403, 'FORBIDDEN');
      expectProblem(await put(userId, { role: 'ADMIN' }, userToken), 403, 'FORBIDDEN');
      expectProblem(await put(paging[0]!.id, { firstName: 'Hacked' }, userToken), 403, 'FORBIDDEN');
      expect((await get(`/api/users/${userId}`, admin)).json()).toMatchObject({ firstName: 'Plain', role: 'USER' });
      expect((await get(`/api/users/${paging[0]!.id}`, admin)).json()).toEqual(paging[0]);
      expectProblem(await put(userId, { firstName: 'Anon' }, ''), 401, 'UNAUTHENTICATED');
    });

    it('refuses unknown members and bad values with 400, a malformed id with 400 and an unknown id with 404', async () => {
      const user = await t.createUser({ email: 'put.bad@example.test', firstName: 'Put', lastName: 'Bad' });
      for (const [payload, field] of [
        [{ id: userId }, 'id'],
        [{ password: 'new-password-1' }, 'password'],
        [{ createdAt: '2024-01-01T00:00:00Z' }, 'createdAt'],
        [{ role: 'ROOT' }, 'role'],
        [{ enabled: 'no' }, 'enabled'],
        [{ email: 'nope' }, 'email'],
        [{ firstName: ' ' }, 'firstName'],
        [{ lastName: 'z'.repeat(201) }, 'lastName'],
        [{ firstName: 'Fine', hasAvatar: true }, 'hasAvatar'],
      ] as const) {
        const problem = expectProblem(await put(user.id, payload), 400, 'VALIDATION_FAILED');
        expect(fieldsOf(problem)).toContain(field);
      }
      expect((await get(`/api/users/${user.id}`, admin)).json()).toEqual(user);
      expectProblem(await put('not-a-uuid', { firstName: 'X' }), 400, 'VALIDATION_FAILED');
      expectProblem(await put('00000000-0000-4000-8000-000000000000', { firstName: 'X' }), 404, 'NOT_FOUND');
      expectProblem(await put('00000000-0000-4000-8000-000000000000', { enabled: false }), 404, 'NOT_FOUND');
      expectProblem(await put('00000000-0000-4000-8000-000000000000', { role: 'USER' }), 404, 'NOT_FOUND');
    });

    it('disabling a user refuses their access token at once and their sign-in', async () => {
      const password = 'to-be-disabled-1';
      const user = await t.createUser({ email: 'to.disable@example.test', password });
      const pair = await t.login(user.email, password);
      expect((await get('/api/self', pair.accessToken)).statusCode).toBe(200);

      const response = await put(user.id, { enabled: false });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: user.id, enabled: false });

      expectProblem(await get('/api/self', pair.accessToken), 401, 'INVALID_TOKEN');
      expectProblem(await get('/api/users', pair.accessToken), 401, 'INVALID_TOKEN');
      expectProblem(await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: pair.refreshToken } }), 401);
      expectProblem(await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password } }), 401, 'INVALID_CREDENTIALS');

      // Enabled again: the old token stays dead, a new sign-in works.
      expect((await put(user.id, { enabled: true })).statusCode).toBe(200);
      expectProblem(await get('/api/self', pair.accessToken), 401, 'INVALID_TOKEN');
      const again = await t.login(user.email, password);
      expect((await get('/api/self', again.accessToken)).statusCode).toBe(200);
    });

    it('switching a user to the directory (ldap true) ends sign-in with the old local password', async () => {
      const password = 'local-password-1';
      const user = await t.createUser({ email: 'to.directory@example.test', password });
      await t.login(user.email, password);
      const response = await put(user.id, { ldap: true });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ ldap: true, enabled: true });
      expectProblem(await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password } }), 401, 'INVALID_CREDENTIALS');
      // The local password is gone, not merely ignored: switching back does not revive it.
      expect((await put(user.id, { ldap: false })).statusCode).toBe(200);
      expectProblem(await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password } }), 401, 'INVALID_CREDENTIALS');
    });
  });

  describe('DELETE /api/users/{id}', () => {
    it('deletes the user and refuses their access token at once', async () => {
      const password = 'to-be-deleted-1';
      const user = await t.createUser({ email: 'to.delete@example.test', password });
      const pair = await t.login(user.email, password);
      expect((await get('/api/self', pair.accessToken)).statusCode).toBe(200);

      const response = await t.request({ method: 'DELETE', url: `/api/users/${user.id}`, token: admin });
      expect([200, 204]).toContain(response.statusCode);

      expectProblem(await get('/api/self', pair.accessToken), 401, 'INVALID_TOKEN');
      expectProblem(await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: pair.refreshToken } }), 401);
      expectProblem(await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password } }), 401, 'INVALID_CREDENTIALS');
      expectProblem(await get(`/api/users/${user.id}`, admin), 404, 'NOT_FOUND');
      expect(ids(await list(admin, { size: '1000' }))).not.toContain(user.id);
      expectProblem(await t.request({ method: 'DELETE', url: `/api/users/${user.id}`, token: admin }), 404, 'NOT_FOUND');
      // The e-mail address is free again.
      expect((await t.createUser({ email: 'TO.DELETE@example.test' })).email).toBe('TO.DELETE@example.test');
    });

    it('answers 403 to a USER, 400 for a malformed id and 404 for an unknown one', async () => {
      expectProblem(await t.request({ method: 'DELETE', url: `/api/users/${paging[1]!.id}`, token: userToken }), 403, 'FORBIDDEN');
      expectProblem(await t.request({ method: 'DELETE', url: `/api/users/${userId}`, token: userToken }), 403, 'FORBIDDEN');
      expect((await get(`/api/users/${paging[1]!.id}`, admin)).statusCode).toBe(200);
      expectProblem(await t.request({ method: 'DELETE', url: '/api/users/xyz', token: admin }), 400, 'VALIDATION_FAILED');
      expectProblem(await t.request({ method: 'DELETE', url: '/api/users/00000000-0000-4000-8000-000000000000', token: admin }), 404, 'NOT_FOUND');
    });
  });

  describe('PUT /api/users/{id}/password', () => {
    const setPassword = (id: string, payload: unknown, token = admin) =>
      t.request({ method: 'PUT', url: `/api/users/${id}/password`, token, payload: payload as Record<string, unknown> });
    const loginStatus = async (email: string, password: string) =>
      (await t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } })).statusCode;

    it('answers 204; the new password signs in, the old one does not, and the sessions of the user end', async () => {
      const user = await t.createUser({ email: 'reset.me@example.test', password: 'old-password-1' });
      const first = await t.login(user.email, 'old-password-1');
      const second = await t.login(user.email, 'old-password-1');

      const response = await setPassword(user.id, { password: 'new-password-1' });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');

      for (const pair of [first, second]) {
        expectProblem(await get('/api/self', pair.accessToken), 401, 'INVALID_TOKEN');
        expectProblem(await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: pair.refreshToken } }), 401);
      }
      expect(await loginStatus(user.email, 'old-password-1')).toBe(401);
      const fresh = await t.login(user.email, 'new-password-1');
      expect((await get('/api/self', fresh.accessToken)).json()).toMatchObject({ id: user.id });
      // Other users' sessions are untouched.
      expect((await get('/api/self', userToken)).statusCode).toBe(200);
    });

    it('gives a user who never had a password one', async () => {
      const user = await t.createUser({ email: 'no.password.yet@example.test' });
      expect(await loginStatus(user.email, 'first-password-1')).toBe(401);
      expect((await setPassword(user.id, { password: 'first-password-1' })).statusCode).toBe(204);
      expect(await loginStatus(user.email, 'first-password-1')).toBe(200);
    });

    it("keeps the admin's own current session when the admin sets their own password, ending their other ones", async () => {
      await t.createUser({ email: 'second.admin@example.test', role: 'ADMIN', password: 'second-admin-1' });
      const current = await t.login('second.admin@example.test', 'second-admin-1');
      const other = await t.login('second.admin@example.test', 'second-admin-1');
      expect((await setPassword(current.userId, { password: 'second-admin-2' }, current.accessToken)).statusCode).toBe(204);
      expect((await get('/api/self', current.accessToken)).statusCode).toBe(200);
      expectProblem(await get('/api/self', other.accessToken), 401, 'INVALID_TOKEN');
      expect(await loginStatus('second.admin@example.test', 'second-admin-2')).toBe(200);
    });

    it('refuses a directory (ldap) user with 409 DIRECTORY_USER', async () => {
      const user = await t.createUser({ email: 'directory.user@example.test', ldap: true });
      expectProblem(await setPassword(user.id, { password: 'local-password-1' }), 409, 'DIRECTORY_USER');
      expect(await loginStatus(user.email, 'local-password-1')).toBe(401);
    });

    it('refuses a password that is too short or too long, and bad bodies, with 400', async () => {
      const user = await t.createUser({ email: 'short.password@example.test', password: 'kept-password-1' });
      for (const payload of [
        { password: 'seven77' },
        { password: '' },
        { password: 'p'.repeat(257) },
        { password: 12345678 },
        {},
        { password: 'long-enough-1', userId: user.id },
      ]) {
        const problem = expectProblem(await setPassword(user.id, payload), 400, 'VALIDATION_FAILED');
        expect(fieldsOf(problem).length).toBeGreaterThan(0);
      }
      const problem = expectProblem(await setPassword(user.id, { password: 'seven77' }), 400, 'VALIDATION_FAILED');
      expect(fieldsOf(problem)).toEqual(['password']);
      expect(await loginStatus(user.email, 'seven77')).toBe(401);
      expect(await loginStatus(user.email, 'kept-password-1')).toBe(200);
      // Exactly 8 and exactly 256 characters are accepted.
      expect((await setPassword(user.id, { password: 'eight888' })).statusCode).toBe(204);
      expect(await loginStatus(user.email, 'eight888')).toBe(200);
      expect((await setPassword(user.id, { password: 'q'.repeat(256) })).statusCode).toBe(204);
      expect(await loginStatus(user.email, 'q'.repeat(256))).toBe(200);
    });

    it('answers 403 to a USER (even for their own id), 404 for an unknown id and 400 for a malformed one', async () => {
      expectProblem(await setPassword(userId, { password: 'hijacked-password-1' }, userToken), 403, 'FORBIDDEN');
      expectProblem(await setPassword(paging[0]!.id, { password: 'hijacked-password-1' }, userToken), 403, 'FORBIDDEN');
      expect(await loginStatus('plain.user@example.test', userPassword)).toBe(200);
      expect(await loginStatus('plain.user@example.test', 'hijacked-password-1')).toBe(401);
      expectProblem(await setPassword('00000000-0000-4000-8000-000000000000', { password: 'whatever-password-1' }), 404, 'NOT_FOUND');
      expectProblem(await setPassword('nope', { password: 'whatever-password-1' }), 400, 'VALIDATION_FAILED');
      expectProblem(
        await t.request({ method: 'PUT', url: `/api/users/${userId}/password`, payload: { password: 'whatever-password-1' } }),
        401,
        'UNAUTHENTICATED',
      );
    });
  });
});

describe('the last enabled admin', () => {
  let t: TestApp;
  let first: string;
  let firstId: string;

  const put = (id: string, payload: Record<string, unknown>, token: string) => t.request({ method: 'PUT', url: `/api/users/${id}`, token, payload });
  const remove = (id: string, token: string) => t.request({ method: 'DELETE', url: `/api/users/${id}`, token });
  const self = async (token: string) => (await t.request({ method: 'GET', url: '/api/self', token })).json<UserBody>();
  const expectLastAdmin = (response: LightMyRequestResponse) => expectProblem(response, 409, 'LAST_ADMIN');

  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '100000' } });
    first = await t.adminToken();
    firstId = (await self(first)).id;
  });
  afterAll(() => t.close());

  it('cannot be demoted, disabled or deleted', async () => {
    expectLastAdmin(await put(firstId, { role: 'USER' }, first));
    expectLastAdmin(await put(firstId, { enabled: false }, first));
    expectLastAdmin(await put(firstId, { role: 'USER', enabled: false, firstName: 'Gone' }, first));
    expectLastAdmin(await remove(firstId, first));
    expect(await self(first)).toMatchObject({ role: 'ADMIN', enabled: true, firstName: 'Admin' });
    // Changes that keep them an enabled admin are fine.
    const renamed = await put(firstId, { firstName: 'Still', role: 'ADMIN', enabled: true }, first);
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ firstName: 'Still', role: 'ADMIN', enabled: true });
  });

  it('a disabled second admin does not count', async () => {
    const disabledAdmin = await t.createUser({ email: 'disabled.admin@example.test', role: 'ADMIN', enabled: false });
    expectLastAdmin(await put(firstId, { role: 'USER' }, first));
    expectLastAdmin(await put(firstId, { enabled: false }, first));
    expectLastAdmin(await remove(firstId, first));
    // Demoting or deleting the disabled admin itself is fine.
    expect((await put(disabledAdmin.id, { role: 'USER' }, first)).statusCode).toBe(200);
    expect((await remove(disabledAdmin.id, first)).statusCode).toBe(204);
  });

  it('can be demoted, disabled or deleted once another enabled admin exists', async () => {
    const second = await t.createUser({ email: 'second.admin@example.test', role: 'ADMIN', password: 'second-admin-1' });
    const secondToken = (await t.login(second.email, 'second-admin-1')).accessToken;

    // The first admin demotes themselves; the role change takes effect at once.
    const demoted = await put(firstId, { role: 'USER' }, first);
    expect(demoted.statusCode).toBe(200);
    expect(demoted.json()).toMatchObject({ role: 'USER', enabled: true });
    expectProblem(
      await t.request({ method: 'POST', url: '/api/users', token: first, payload: { firstName: 'A', lastName: 'B', email: 'a.b@example.test' } }),
      403,
      'FORBIDDEN',
    );
    expect(await self(first)).toMatchObject({ role: 'USER' });

    // Now the second admin is the last one.
    expectLastAdmin(await put(second.id, { role: 'USER' }, secondToken));
    expectLastAdmin(await put(second.id, { enabled: false }, secondToken));
    expectLastAdmin(await remove(second.id, secondToken));

    // Promote the first again; then the second can be disabled, and deleted.
    expect((await put(firstId, { role: 'ADMIN' }, secondToken)).statusCode).toBe(200);
    expect((await put(second.id, { enabled: false }, first)).statusCode).toBe(200);
    expectProblem(await t.request({ method: 'GET', url: '/api/self', token: secondToken }), 401, 'INVALID_TOKEN');
    expectLastAdmin(await put(firstId, { enabled: false }, first));
    expect((await put(second.id, { enabled: true }, first)).statusCode).toBe(200);
    expect((await remove(second.id, first)).statusCode).toBe(204);
    expectLastAdmin(await remove(firstId, first));
    expect(await self(first)).toMatchObject({ role: 'ADMIN', enabled: true });
  });

  it('an admin may delete themselves when another enabled admin exists', async () => {
    const other = await t.createUser({ email: 'leaving.admin@example.test', role: 'ADMIN', password: 'leaving-admin-1' });
    const otherToken = (await t.login(other.email, 'leaving-admin-1')).accessToken;
    expect((await remove(other.id, otherToken)).statusCode).toBe(204);
    expectProblem(await t.request({ method: 'GET', url: '/api/self', token: otherToken }), 401, 'INVALID_TOKEN');
    expectLastAdmin(await remove(firstId, first));
  });

  it('two admins demoting each other at once: exactly one succeeds', async () => {
    const a = await t.createUser({ email: 'race.a@example.test', role: 'ADMIN', password: 'race-admin-a-1' });
    const b = await t.createUser({ email: 'race.b@example.test', role: 'ADMIN', password: 'race-admin-b-1' });
    // Leave only a and b as enabled admins.
    expect((await put(firstId, { enabled: false }, (await t.login(a.email, 'race-admin-a-1')).accessToken)).statusCode).toBe(200);
    const tokenA = (await t.login(a.email, 'race-admin-a-1')).accessToken;
    const tokenB = (await t.login(b.email, 'race-admin-b-1')).accessToken;
    const [byA, byB] = await Promise.all([put(b.id, { role: 'USER' }, tokenA), put(a.id, { role: 'USER' }, tokenB)]);
    // The loser is refused either by the last-admin rule (409) or, if the winner's change was
    // already committed when the loser's token was checked, because the loser is no admin any more (403).
    const statuses = [byA.statusCode, byB.statusCode];
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect([403, 409]).toContain(statuses.find((status) => status !== 200));
    const loser = byA.statusCode === 200 ? byB : byA;
    expectProblem(loser, loser.statusCode, loser.statusCode === 409 ? 'LAST_ADMIN' : 'FORBIDDEN');
    const admins = (
      await t.request({ method: 'GET', url: '/api/users', token: byA.statusCode === 200 ? tokenA : tokenB, query: { role: 'ADMIN', enabled: 'true' } })
    ).json<Page<UserBody>>();
    expect(admins.totalElements).toBe(1);
  });
});
