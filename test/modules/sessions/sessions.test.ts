import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  ISO_UTC,
  UUID,
  createTestApp,
  expectProblem,
  type TestApp,
  type TokenPairBody,
  type UserBody,
} from '../../helpers/app.js';
import { PAGEABLE_KEYS, PAGE_KEYS, SORT_KEYS, type Page } from '../../helpers/contract.js';

/** Sessions: GET /api/sessions, GET /api/users/{id}/sessions, DELETE /api/sessions/{id} (docs/behaviour.md#authentication-and-sessions, docs/api.md#roles, docs/api.md#paging). */

interface SessionItem {
  id: string;
  expiresAt: string;
  refreshExpiresAt: string;
  userId: string;
  userAgent: string | null;
  createdAt: string;
  modifiedAt: string;
}

const SESSION_KEYS = ['createdAt', 'expiresAt', 'id', 'modifiedAt', 'refreshExpiresAt', 'userAgent', 'userId'];

const MINUTE = 60_000;
const DAY = 86_400_000;
const UNKNOWN_ID = '7d3f4a52-9c1e-4b8a-a1f0-2e6b5c4d3a21';

describe('sessions', () => {
  let t: TestApp;
  let admin: string;
  const password = 'session-password-1';

  /** A user with a password, ready to sign in. */
  const newUser = (email: string, role: 'USER' | 'ADMIN' = 'USER'): Promise<UserBody> => t.createUser({ email, password, role });
  const signIn = (email: string, headers?: Record<string, string>): Promise<TokenPairBody> => t.login(email, password, headers);

  async function list(url: string, token: string, query: Record<string, string> = {}): Promise<Page<SessionItem>> {
    const response = await t.request({ method: 'GET', url, token, query });
    if (response.statusCode !== 200) throw new Error(`GET ${url} answered ${response.statusCode}: ${response.body}`);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    return response.json<Page<SessionItem>>();
  }
  const listAll = (token: string, query: Record<string, string> = {}) => list('/api/sessions', token, { size: '1000', ...query });
  const listOfUser = (userId: string, token: string, query: Record<string, string> = {}) =>
    list(`/api/users/${userId}/sessions`, token, { size: '1000', ...query });
  const ids = (page: Page<SessionItem>) => page.content.map((item) => item.id);

  const canUse = async (token: string) => (await t.request({ method: 'GET', url: '/api/self', token })).statusCode;
  const refresh = (refreshToken: string) => t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } });
  const revoke = (sessionId: string, token: string) => t.request({ method: 'DELETE', url: `/api/sessions/${sessionId}`, token });

  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '100000' } });
    admin = await t.adminToken();
  });
  afterAll(() => t.close());

  describe('session items', () => {
    let user: UserBody;
    beforeAll(async () => {
      user = await newUser('items@example.test');
    });

    it('have exactly the fields of docs/api.md#session, with UTC timestamps derived from the sign-in time', async () => {
      const signedInAt = t.clock.now();
      const pair = await signIn(user.email, { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) DeskbookTest/2.0' });
      const page = await listOfUser(user.id, pair.accessToken);
      const item = page.content.find((session) => session.id === pair.sessionId);
      expect(item).toBeDefined();
      expect(Object.keys(item!).sort()).toEqual(SESSION_KEYS);
      expect(item!.id).toMatch(UUID);
      expect(item!.userId).toBe(user.id);
      expect(item!.userAgent).toBe('Mozilla/5.0 (X11; Linux x86_64) DeskbookTest/2.0');
      for (const key of ['expiresAt', 'refreshExpiresAt', 'createdAt', 'modifiedAt'] as const) expect(item![key]).toMatch(ISO_UTC);
      expect(item!.createdAt).toBe(signedInAt.toISOString());
      expect(item!.modifiedAt).toBe(item!.createdAt);
      expect(Date.parse(item!.expiresAt) - signedInAt.getTime()).toBe(15 * MINUTE);
      expect(Date.parse(item!.refreshExpiresAt) - signedInAt.getTime()).toBe(30 * DAY);
      // The list says what the sign-in answered.
      expect(item!.expiresAt).toBe(pair.expiresAt);
      expect(item!.refreshExpiresAt).toBe(pair.refreshExpiresAt);
      // The same item in GET /api/sessions.
      expect((await listAll(pair.accessToken)).content.find((session) => session.id === pair.sessionId)).toEqual(item);
    });

    it('have userAgent null when the sign-in sent no User-Agent header', async () => {
      // light-my-request sends "lightMyRequest" unless the header is given as undefined.
      const response = await t.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password },
        headers: { 'user-agent': undefined },
      });
      expect(response.statusCode).toBe(200);
      const pair = response.json<TokenPairBody>();
      const item = (await listOfUser(user.id, pair.accessToken)).content.find((session) => session.id === pair.sessionId);
      expect(item).toBeDefined();
      expect(item!.userAgent).toBeNull();
      expect(Object.keys(item!).sort()).toEqual(SESSION_KEYS);
    });

    it("record the client's default User-Agent and bound a very long one", async () => {
      const plain = await signIn(user.email);
      const long = await signIn(user.email, { 'user-agent': `Agent/${'x'.repeat(5000)}` });
      const page = await listOfUser(user.id, plain.accessToken);
      expect(page.content.find((session) => session.id === plain.sessionId)?.userAgent).toBe('lightMyRequest');
      const bounded = page.content.find((session) => session.id === long.sessionId)?.userAgent;
      expect(bounded).toBeTruthy();
      expect(bounded!.startsWith('Agent/xxx')).toBe(true);
      expect(bounded!.length).toBeLessThanOrEqual(1000);
    });
  });

  describe('page envelope, order and paging', () => {
    let user: UserBody;
    /** Session ids in sign-in order, one second apart. */
    const signedIn: string[] = [];
    let token: string;

    beforeAll(async () => {
      user = await newUser('order@example.test');
      for (let i = 0; i < 5; i++) {
        t.clock.advance(1000);
        const pair = await signIn(user.email, { 'user-agent': `Agent-${i}` });
        signedIn.push(pair.sessionId);
        token = pair.accessToken;
      }
    });

    it('has exactly the envelope of docs/api.md#page-envelope, with the defaults of docs/api.md#paging', async () => {
      const response = await t.request({ method: 'GET', url: '/api/sessions', token });
      expect(response.statusCode).toBe(200);
      const page = response.json<Page<SessionItem>>();
      expect(Object.keys(page).sort()).toEqual(PAGE_KEYS);
      expect(Object.keys(page.pageable).sort()).toEqual(PAGEABLE_KEYS);
      expect(page).toMatchObject({
        totalElements: 5,
        totalPages: 1,
        size: 20,
        number: 0,
        sort: [],
        first: true,
        last: true,
        numberOfElements: 5,
        empty: false,
        pageable: { offset: 0, sort: [], pageSize: 20, pageNumber: 0, paged: true, unpaged: false },
      });
      expect(page.content).toHaveLength(5);
    });

    it('lists the newest session first by default (createdAt descending)', async () => {
      const page = await listAll(token);
      expect(ids(page)).toEqual([...signedIn].reverse());
      const created = page.content.map((item) => Date.parse(item.createdAt));
      for (let i = 1; i < created.length; i++) expect(created[i]).toBeLessThan(created[i - 1]!);
      // The same order on /api/users/{id}/sessions.
      expect(ids(await listOfUser(user.id, admin))).toEqual([...signedIn].reverse());
    });

    it('honours sort=createdAt,asc and lists the applied order in sort and pageable.sort', async () => {
      const page = await listAll(token, { sort: 'createdAt,asc' });
      expect(ids(page)).toEqual(signedIn);
      const expected = [{ direction: 'ASC', nullHandling: 'NATIVE', ascending: true, property: 'createdAt', ignoreCase: false }];
      expect(page.sort).toEqual(expected);
      expect(page.pageable.sort).toEqual(expected);
      expect(Object.keys(page.sort[0]!).sort()).toEqual(SORT_KEYS);

      const descending = await listAll(token, { sort: 'createdAt,desc' });
      expect(ids(descending)).toEqual([...signedIn].reverse());
      expect(descending.sort).toEqual([{ ...expected[0], direction: 'DESC', ascending: false }]);

      // The same order given inside pageable, as JSON and as pageable[sort].
      expect(ids(await listAll(token, { pageable: JSON.stringify({ sort: ['createdAt,asc'] }) }))).toEqual(signedIn);
      expect(ids(await listAll(token, { 'pageable[sort]': 'createdAt,asc' }))).toEqual(signedIn);
    });

    it('sorts by the other session properties', async () => {
      const byAgentDesc = await listAll(token, { sort: 'userAgent,desc' });
      expect(byAgentDesc.content.map((item) => item.userAgent)).toEqual(['Agent-4', 'Agent-3', 'Agent-2', 'Agent-1', 'Agent-0']);
      for (const property of ['modifiedAt', 'expiresAt', 'refreshExpiresAt'] as const) {
        const page = await listAll(token, { sort: `${property},asc` });
        expect(ids(page)).toEqual(signedIn);
        expect(page.sort.map((order) => order.property)).toEqual([property]);
      }
      const byUser = await listAll(admin, { sort: 'userId' });
      const userIds = byUser.content.map((item) => item.userId);
      expect(userIds).toEqual([...userIds].sort());
    });

    it('refuses to sort by a property a session does not have (400), and never runs it as SQL', async () => {
      for (const sort of ['nope', 'nope,asc', 'password', 'refreshGeneration', 'createdAt;drop table sessions', 'created_at', "createdAt' --"]) {
        const response = await t.request({ method: 'GET', url: '/api/sessions', token, query: { sort } });
        const problem = expectProblem(response, 400, 'VALIDATION_FAILED');
        expect(problem.errors?.map((error) => error.field)).toContain('sort');
      }
      for (const pageable of [JSON.stringify({ sort: ['nope,desc'] }), JSON.stringify({ page: -1 }), 'not json']) {
        expectProblem(await t.request({ method: 'GET', url: '/api/sessions', token, query: { pageable } }), 400, 'VALIDATION_FAILED');
      }
      expectProblem(await t.request({ method: 'GET', url: `/api/users/${user.id}/sessions`, token, query: { sort: 'nope' } }), 400, 'VALIDATION_FAILED');
      // The sessions are all still there.
      expect((await listAll(token)).totalElements).toBe(5);
    });

    it('refuses bad page and size values', async () => {
      for (const query of <Record<string, string>[]>[{ page: '-1' }, { page: 'abc' }, { size: '0' }, { size: '-5' }, { size: 'x' }]) {
        expectProblem(await t.request({ method: 'GET', url: '/api/sessions', token, query }), 400, 'VALIDATION_FAILED');
      }
    });

    it('pages without overlap, with a stable order among sessions created at the same instant', async () => {
      // Three more sessions in the same millisecond: the order must still be total.
      const sameInstant: string[] = [];
      t.clock.advance(1000);
      for (let i = 0; i < 3; i++) sameInstant.push((await signIn(user.email)).sessionId);
      try {
        const seen: string[] = [];
        for (let number = 0; number < 3; number++) {
          const page = await list('/api/sessions', token, { size: '3', page: String(number) });
          expect(page).toMatchObject({ totalElements: 8, totalPages: 3, size: 3, number, first: number === 0, last: number === 2 });
          expect(page.pageable).toMatchObject({ offset: number * 3, pageSize: 3, pageNumber: number });
          expect(page.numberOfElements).toBe(number === 2 ? 2 : 3);
          seen.push(...ids(page));
        }
        expect(new Set(seen).size).toBe(8);
        expect(new Set(seen)).toEqual(new Set([...signedIn, ...sameInstant]));
        // Newest first: the three same-instant sessions come before the five older ones.
        expect(new Set(seen.slice(0, 3))).toEqual(new Set(sameInstant));

        const past = await list('/api/sessions', token, { size: '3', page: '3' });
        expect(past).toMatchObject({ content: [], empty: true, first: false, last: true, numberOfElements: 0, totalElements: 8, number: 3 });
        // The same pages requested twice come back identical.
        expect(ids(await list('/api/sessions', token, { size: '3', page: '1' }))).toEqual(seen.slice(3, 6));
      } finally {
        for (const id of sameInstant) expect((await revoke(id, token)).statusCode).toBe(204);
      }
    });
  });

  describe('who sees which sessions', () => {
    let dave: UserBody;
    let erin: UserBody;
    const daveSessions: TokenPairBody[] = [];
    const erinSessions: TokenPairBody[] = [];

    beforeAll(async () => {
      dave = await newUser('dave@example.test');
      erin = await newUser('erin@example.test');
      for (let i = 0; i < 2; i++) daveSessions.push(await signIn(dave.email));
      for (let i = 0; i < 3; i++) erinSessions.push(await signIn(erin.email));
    });

    it('GET /api/sessions shows a USER only their own sessions', async () => {
      const davePage = await listAll(daveSessions[0]!.accessToken);
      expect(davePage.totalElements).toBe(2);
      expect(davePage.content.every((item) => item.userId === dave.id)).toBe(true);
      expect(new Set(ids(davePage))).toEqual(new Set(daveSessions.map((pair) => pair.sessionId)));

      const erinPage = await listAll(erinSessions[2]!.accessToken);
      expect(erinPage.totalElements).toBe(3);
      expect(erinPage.content.every((item) => item.userId === erin.id)).toBe(true);
      expect(new Set(ids(erinPage))).toEqual(new Set(erinSessions.map((pair) => pair.sessionId)));
    });

    it('GET /api/sessions shows an ADMIN every session', async () => {
      const page = await listAll(admin);
      expect(page.totalElements).toBe(page.content.length);
      const listed = new Set(ids(page));
      for (const pair of [...daveSessions, ...erinSessions]) expect(listed.has(pair.sessionId)).toBe(true);
      const owners = new Set(page.content.map((item) => item.userId));
      expect(owners.has(dave.id) && owners.has(erin.id)).toBe(true);
      // Every owner's sessions add up to the whole list.
      let sum = 0;
      for (const owner of owners) sum += (await listOfUser(owner, admin)).totalElements;
      expect(sum).toBe(page.totalElements);
    });

    it('lets a USER filter by their own userId but answers 403 for another user', async () => {
      const own = await listAll(daveSessions[0]!.accessToken, { userId: dave.id });
      expect(own.totalElements).toBe(2);
      const other = await t.request({ method: 'GET', url: '/api/sessions', token: daveSessions[0]!.accessToken, query: { userId: erin.id } });
      expectProblem(other, 403, 'FORBIDDEN');
      expect(other.body).not.toContain(erinSessions[0]!.sessionId);
      expectProblem(
        await t.request({ method: 'GET', url: '/api/sessions', token: daveSessions[0]!.accessToken, query: { userId: UNKNOWN_ID } }),
        403,
        'FORBIDDEN',
      );
    });

    it('lets an ADMIN filter by userId', async () => {
      const page = await listAll(admin, { userId: erin.id });
      expect(page.totalElements).toBe(3);
      expect(new Set(ids(page))).toEqual(new Set(erinSessions.map((pair) => pair.sessionId)));
      // A user without sessions (or an unknown id) gives an empty page, not an error.
      const none = await listAll(admin, { userId: UNKNOWN_ID });
      expect(none).toMatchObject({ totalElements: 0, totalPages: 0, content: [], empty: true });
    });

    it('refuses a malformed userId filter (400) and a missing token (401)', async () => {
      expectProblem(await t.request({ method: 'GET', url: '/api/sessions', token: admin, query: { userId: 'not-a-uuid' } }), 400, 'VALIDATION_FAILED');
      expectProblem(
        await t.request({ method: 'GET', url: '/api/sessions', token: daveSessions[0]!.accessToken, query: { userId: `${dave.id}x` } }),
        400,
        'VALIDATION_FAILED',
      );
      expectProblem(await t.request({ method: 'GET', url: '/api/sessions' }), 401, 'UNAUTHENTICATED');
    });

    describe('GET /api/users/{id}/sessions', () => {
      it('answers a USER for their own id', async () => {
        const page = await listOfUser(dave.id, daveSessions[1]!.accessToken);
        expect(page.totalElements).toBe(2);
        expect(page.content.every((item) => item.userId === dave.id)).toBe(true);
      });

      it("answers 403 to a USER asking for another user's sessions, known or not", async () => {
        const response = await t.request({ method: 'GET', url: `/api/users/${erin.id}/sessions`, token: daveSessions[0]!.accessToken });
        expectProblem(response, 403, 'FORBIDDEN');
        expect(response.body).not.toContain(erinSessions[0]!.sessionId);
        // Unknown ids answer the same 403, so a USER cannot probe which ids exist.
        expectProblem(await t.request({ method: 'GET', url: `/api/users/${UNKNOWN_ID}/sessions`, token: daveSessions[0]!.accessToken }), 403, 'FORBIDDEN');
      });

      it('answers an ADMIN for any user, and 404 for an unknown user', async () => {
        const page = await listOfUser(erin.id, admin);
        expect(page.totalElements).toBe(3);
        expect(page.content.every((item) => item.userId === erin.id)).toBe(true);
        const adminSelf = (await t.request({ method: 'GET', url: '/api/self', token: admin })).json<UserBody>();
        expect((await listOfUser(adminSelf.id, admin)).content.every((item) => item.userId === adminSelf.id)).toBe(true);
        expectProblem(await t.request({ method: 'GET', url: `/api/users/${UNKNOWN_ID}/sessions`, token: admin }), 404, 'NOT_FOUND');
      });

      it('answers 400 for a malformed id and 401 without a token', async () => {
        for (const id of ['not-a-uuid', '123', `${dave.id}0`, "1' or '1'='1"]) {
          for (const token of [admin, daveSessions[0]!.accessToken]) {
            const response = await t.request({ method: 'GET', url: `/api/users/${encodeURIComponent(id)}/sessions`, token });
            expectProblem(response, 400, 'VALIDATION_FAILED');
          }
        }
        expectProblem(await t.request({ method: 'GET', url: `/api/users/${dave.id}/sessions` }), 401, 'UNAUTHENTICATED');
      });
    });
  });

  describe('DELETE /api/sessions/{id}', () => {
    let frank: UserBody;
    let grace: UserBody;

    beforeAll(async () => {
      frank = await newUser('frank@example.test');
      grace = await newUser('grace@example.test');
    });

    it('lets the owner revoke another of their sessions: its tokens are refused at once and it leaves the list', async () => {
      const keep = await signIn(frank.email);
      const gone = await signIn(frank.email);
      expect(await canUse(gone.accessToken)).toBe(200);

      const response = await revoke(gone.sessionId, keep.accessToken);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');

      expectProblem(await t.request({ method: 'GET', url: '/api/self', token: gone.accessToken }), 401, 'INVALID_TOKEN');
      expectProblem(await refresh(gone.refreshToken), 401, 'INVALID_REFRESH_TOKEN');
      expect(await canUse(keep.accessToken)).toBe(200);

      expect(ids(await listAll(keep.accessToken))).not.toContain(gone.sessionId);
      expect(ids(await listOfUser(frank.id, admin))).not.toContain(gone.sessionId);
      expect(ids(await listAll(admin))).not.toContain(gone.sessionId);
      expect(ids(await listAll(keep.accessToken))).toContain(keep.sessionId);

      // Once gone, it stays gone.
      expectProblem(await revoke(gone.sessionId, keep.accessToken), 404, 'NOT_FOUND');
    });

    it('lets the owner revoke the session they are using', async () => {
      const pair = await signIn(frank.email);
      expect((await revoke(pair.sessionId, pair.accessToken)).statusCode).toBe(204);
      expectProblem(await t.request({ method: 'GET', url: '/api/sessions', token: pair.accessToken }), 401, 'INVALID_TOKEN');
      expectProblem(await refresh(pair.refreshToken), 401, 'INVALID_REFRESH_TOKEN');
      expect(ids(await listOfUser(frank.id, admin))).not.toContain(pair.sessionId);
    });

    it("refuses a refreshed session's new tokens once it is revoked", async () => {
      const first = await signIn(frank.email);
      const refreshed = await refresh(first.refreshToken);
      expect(refreshed.statusCode).toBe(200);
      const second = refreshed.json<TokenPairBody>();
      expect((await revoke(first.sessionId, admin)).statusCode).toBe(204);
      expectProblem(await t.request({ method: 'GET', url: '/api/self', token: second.accessToken }), 401, 'INVALID_TOKEN');
      expectProblem(await refresh(second.refreshToken), 401, 'INVALID_REFRESH_TOKEN');
    });

    it("lets an ADMIN revoke anyone's session", async () => {
      const pair = await signIn(grace.email);
      expect(await canUse(pair.accessToken)).toBe(200);
      const response = await revoke(pair.sessionId, admin);
      expect(response.statusCode).toBe(204);
      expectProblem(await t.request({ method: 'GET', url: '/api/self', token: pair.accessToken }), 401, 'INVALID_TOKEN');
      expectProblem(await refresh(pair.refreshToken), 401, 'INVALID_REFRESH_TOKEN');
      expect(ids(await listOfUser(grace.id, admin))).not.toContain(pair.sessionId);
      // The admin's own session is untouched.
      expect(await canUse(admin)).toBe(200);
    });

    it("answers 403 to a USER revoking another user's session, and that session keeps working", async () => {
      const victim = await signIn(grace.email);
      const attacker = await signIn(frank.email);
      const response = await revoke(victim.sessionId, attacker.accessToken);
      expectProblem(response, 403, 'FORBIDDEN');

      expect(await canUse(victim.accessToken)).toBe(200);
      expect(ids(await listAll(victim.accessToken))).toContain(victim.sessionId);

      // Nor may a USER revoke an admin's session.
      const adminPair = await t.login(ADMIN_EMAIL, ADMIN_PASSWORD);
      expectProblem(await revoke(adminPair.sessionId, attacker.accessToken), 403, 'FORBIDDEN');
      expect(await canUse(adminPair.accessToken)).toBe(200);

      // The refresh token of the victim still works too.
      expect((await refresh(victim.refreshToken)).statusCode).toBe(200);
    });

    it('answers 404 for an unknown id, 400 for a malformed one and 401 without a token', async () => {
      const pair = await signIn(frank.email);
      expectProblem(await revoke(UNKNOWN_ID, pair.accessToken), 404, 'NOT_FOUND');
      expectProblem(await revoke(UNKNOWN_ID, admin), 404, 'NOT_FOUND');
      for (const id of ['not-a-uuid', '42', `${pair.sessionId}0`, pair.sessionId.toUpperCase().replace(/-/g, '')]) {
        expectProblem(await revoke(encodeURIComponent(id), pair.accessToken), 400, 'VALIDATION_FAILED');
      }
      expectProblem(await t.request({ method: 'DELETE', url: `/api/sessions/${pair.sessionId}` }), 401, 'UNAUTHENTICATED');
      expect(await canUse(pair.accessToken)).toBe(200);
    });

    it('does not list a logged-out session', async () => {
      const stays = await signIn(grace.email);
      const leaves = await signIn(grace.email);
      expect(ids(await listAll(stays.accessToken))).toContain(leaves.sessionId);
      expect((await t.request({ method: 'POST', url: '/api/auth/logout', token: leaves.accessToken })).statusCode).toBe(204);
      const page = await listAll(stays.accessToken);
      expect(ids(page)).not.toContain(leaves.sessionId);
      expect(ids(page)).toContain(stays.sessionId);
      expect(ids(await listAll(admin))).not.toContain(leaves.sessionId);
      expectProblem(await revoke(leaves.sessionId, stays.accessToken), 404, 'NOT_FOUND');
    });
  });

  // Moves the clock by a month: keep this block last.
  describe('expired sessions', () => {
    it('are not listed once their refresh token has expired; a refreshed session lives on', async () => {
      const start = t.clock.now();
      const henry = await newUser('henry@example.test');
      const old = await signIn(henry.email);
      const kept = await signIn(henry.email);
      try {
        // Twenty days on, one session is refreshed: its 30 days start anew.
        t.clock.advance(20 * DAY);
        expect((await refresh(kept.refreshToken)).statusCode).toBe(200);

        // Just before the first 30 days end, both are listed.
        t.clock.set(new Date(start.getTime() + 30 * DAY - MINUTE));
        let admin2 = (await t.login(ADMIN_EMAIL, ADMIN_PASSWORD)).accessToken;
        expect(new Set(ids(await listOfUser(henry.id, admin2)))).toEqual(new Set([old.sessionId, kept.sessionId]));

        // Just after, the old session is gone from every list; the refreshed one is still there.
        t.clock.set(new Date(start.getTime() + 30 * DAY + MINUTE));
        admin2 = (await t.login(ADMIN_EMAIL, ADMIN_PASSWORD)).accessToken;
        const page = await listOfUser(henry.id, admin2);
        expect(ids(page)).toEqual([kept.sessionId]);
        expect(page.totalElements).toBe(1);
        const all = await listAll(admin2);
        expect(ids(all)).not.toContain(old.sessionId);
        expect(all.content.every((item) => Date.parse(item.refreshExpiresAt) > t.clock.now().getTime())).toBe(true);
        expect(ids(await listAll(admin2, { userId: henry.id }))).toEqual([kept.sessionId]);
        const fresh = await signIn(henry.email);
        expect(new Set(ids(await listAll(fresh.accessToken)))).toEqual(new Set([kept.sessionId, fresh.sessionId]));
        expectProblem(await refresh(old.refreshToken), 401, 'INVALID_REFRESH_TOKEN');

        // Far in the future every session made so far has ended.
        t.clock.set(new Date(start.getTime() + 80 * DAY));
        const late = await t.login(ADMIN_EMAIL, ADMIN_PASSWORD);
        const remaining = await listAll(late.accessToken);
        expect(ids(remaining)).toEqual([late.sessionId]);
        expect(remaining.totalElements).toBe(1);
      } finally {
        t.clock.set(start);
      }
    });
  });
});
