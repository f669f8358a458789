import { Attribute, Change, Client } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { PEOPLE, ROOT_DN, ROOT_PASSWORD, groupDn, personDn, startSlapd, type DirectoryPerson, type Slapd } from '../../helpers/slapd.js';

/**
 * LDAP_ADMIN_GROUP against a real slapd with a groupOfNames: membership read at each directory
 * sign-in makes the person ADMIN or USER (docs/behaviour.md#ldap-groups), never demoting the
 * last enabled admin.
 */

const person = (uid: string): DirectoryPerson => ({ uid, mail: `${uid}@example.test`, givenName: uid, sn: 'Dir', password: `${uid}-directory-secret` });
const ann = person('ann');
const bob = person('bob');
const cat = person('cat');

async function changeMembers(slapd: Slapd, operation: 'add' | 'delete', uid: string) {
  const client = new Client({ url: slapd.url });
  try {
    await client.bind(ROOT_DN, ROOT_PASSWORD);
    await client.modify(groupDn('deskbook-admins'), new Change({ operation, modification: new Attribute({ type: 'member', values: [personDn(uid)] }) }));
  } finally {
    await client.unbind();
  }
}

async function roleAfterSignIn(t: TestApp, who: DirectoryPerson): Promise<string> {
  const pair = await t.login(String(who.mail), who.password);
  const self = await t.request({ method: 'GET', url: '/api/self', token: pair.accessToken });
  return self.json<{ role: string }>().role;
}

describe('LDAP_ADMIN_GROUP', () => {
  let slapd: Slapd;
  let t: TestApp;

  beforeAll(async () => {
    slapd = await startSlapd([ann, bob, cat], [{ cn: 'deskbook-admins', members: ['ann'] }]);
    t = await createTestApp({
      env: {
        LDAP_URL: slapd.url,
        LDAP_BIND_DN: ROOT_DN,
        LDAP_BIND_PASSWORD: ROOT_PASSWORD,
        LDAP_USER_BASE: PEOPLE,
        LDAP_AUTO_CREATE: 'true',
        LDAP_ADMIN_GROUP: groupDn('deskbook-admins'),
        LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '100000',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await slapd?.stop();
  });

  it('makes a member ADMIN and everyone else USER, at the first sign-in too', async () => {
    expect(await roleAfterSignIn(t, ann)).toBe('ADMIN');
    expect(await roleAfterSignIn(t, bob)).toBe('USER');
  });

  it('promotes and demotes at the next sign-in as the group changes', async () => {
    await changeMembers(slapd, 'add', 'bob');
    expect(await roleAfterSignIn(t, bob)).toBe('ADMIN');
    await changeMembers(slapd, 'delete', 'bob');
    expect(await roleAfterSignIn(t, bob)).toBe('USER');
  });

  it('never demotes the last enabled admin', async () => {
    // cat is the only member; both other admins (bootstrap and ann) are disabled by cat.
    await changeMembers(slapd, 'add', 'cat');
    await changeMembers(slapd, 'delete', 'ann');
    const catToken = (await t.login(String(cat.mail), cat.password)).accessToken;
    const users = (await t.request({ method: 'GET', url: '/api/users', token: catToken, query: { role: 'ADMIN', size: '100' } })).json<{
      content: { id: string; email: string }[];
    }>().content;
    for (const other of users.filter((user) => user.email !== cat.mail)) {
      const response = await t.request({ method: 'PUT', url: `/api/users/${other.id}`, token: catToken, payload: { enabled: false } });
      expect(response.statusCode, response.body).toBe(200);
    }
    // bob (who does not sign in) keeps the group non-empty, as groupOfNames requires.
    await changeMembers(slapd, 'add', 'bob');
    await changeMembers(slapd, 'delete', 'cat');
    expect(await roleAfterSignIn(t, cat)).toBe('ADMIN');
  });
});

describe('LDAP_ADMIN_GROUP with LDAP_USER_DN_TEMPLATE, and a group that does not exist', () => {
  let slapd: Slapd;
  const dora = person('dora');
  const eve = person('eve');

  beforeAll(async () => {
    slapd = await startSlapd([dora, eve], [{ cn: 'deskbook-admins', members: ['dora'] }]);
  });
  afterAll(() => slapd?.stop());

  const templateEnv = (group: string) => ({
    LDAP_URL: slapd.url,
    LDAP_USER_DN_TEMPLATE: `uid={username},${PEOPLE}`,
    LDAP_AUTO_CREATE: 'true',
    LDAP_ADMIN_GROUP: group,
    LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '100000',
  });

  it('reads the membership with the user’s own bind', async () => {
    const t = await createTestApp({ env: templateEnv(groupDn('deskbook-admins')) });
    try {
      expect(await roleAfterSignIn(t, dora)).toBe('ADMIN');
      expect(await roleAfterSignIn(t, eve)).toBe('USER');
    } finally {
      await t.close();
    }
  });

  it('treats a group that does not exist as having no members (sign-in still works)', async () => {
    const t = await createTestApp({ env: templateEnv(groupDn('no-such-group')) });
    try {
      expect(await roleAfterSignIn(t, dora)).toBe('USER');
    } finally {
      await t.close();
    }
  });
});
