import { Attribute, Change, Client } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupSearches, normalizeDn } from '../../../src/modules/auth/ldap.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { PEOPLE, ROOT_DN, ROOT_PASSWORD, groupDn, personDn, startSlapd, type DirectoryPerson, type Slapd } from '../../helpers/slapd.js';

/**
 * Team memberships from directory groups (docs/policies.md#teams) against a real slapd: read at
 * each directory sign-in, in one search for all team groups; LDAP memberships follow the groups,
 * ADMIN-made ones stay.
 */

const person = (uid: string): DirectoryPerson => ({ uid, mail: `${uid}@example.test`, givenName: uid, sn: 'Dir', password: `${uid}-directory-secret` });
const ann = person('ann');
const bob = person('bob');

async function changeMembers(slapd: Slapd, group: string, operation: 'add' | 'delete', uid: string) {
  const client = new Client({ url: slapd.url });
  try {
    await client.bind(ROOT_DN, ROOT_PASSWORD);
    await client.modify(groupDn(group), new Change({ operation, modification: new Attribute({ type: 'member', values: [personDn(uid)] }) }));
  } finally {
    await client.unbind();
  }
}

describe('team groups from the directory', () => {
  let slapd: Slapd;
  let t: TestApp;
  let admin: string;
  const teamIds: Record<string, string> = {};

  const teamsAfterSignIn = async (who: DirectoryPerson) => {
    const pair = await t.login(String(who.mail), who.password);
    const mine = await t.request({ method: 'GET', url: '/api/self/teams', token: pair.accessToken });
    return mine.json<{ name: string; source: string }[]>().map((team) => `${team.name}:${team.source}`);
  };

  beforeAll(async () => {
    slapd = await startSlapd(
      [ann, bob],
      [
        { cn: 'sales', members: ['ann'] },
        { cn: 'dev', members: ['ann', 'bob'] },
        { cn: 'ops', members: ['bob'] },
      ],
    );
    t = await createTestApp({
      env: { LDAP_URL: slapd.url, LDAP_BIND_DN: ROOT_DN, LDAP_BIND_PASSWORD: ROOT_PASSWORD, LDAP_USER_BASE: PEOPLE, LDAP_AUTO_CREATE: 'true' },
    });
    admin = await t.adminToken();
    for (const [name, group] of [
      ['Sales', groupDn('sales').toUpperCase()],
      ['Dev', groupDn('dev')],
      ['Ops', groupDn('ops')],
      ['Missing', 'cn=missing,ou=nowhere,dc=deskbook,dc=test'],
    ] as const) {
      const created = await t.request({ method: 'POST', url: '/api/teams', token: admin, payload: { name, ldapGroup: group } });
      expect(created.statusCode, created.body).toBe(200);
      teamIds[name] = created.json<{ id: string }>().id;
    }
  });
  afterAll(async () => {
    await t?.close();
    await slapd?.stop();
  });

  it('puts a person in the teams whose groups list them, at the first sign-in (DNs compared ignoring case)', async () => {
    expect(await teamsAfterSignIn(ann)).toEqual(['Dev:LDAP', 'Sales:LDAP']);
    expect(await teamsAfterSignIn(bob)).toEqual(['Dev:LDAP', 'Ops:LDAP']);
  });

  it('follows the groups at the next sign-in and leaves ADMIN-made memberships alone', async () => {
    const bobId = (await t.request({ method: 'GET', url: '/api/users?search=bob', token: admin })).json<{ content: { id: string }[] }>().content[0]!.id;
    // An admin adds bob to Sales by hand: it stays whatever the directory says.
    await t.request({ method: 'POST', url: `/api/teams/${teamIds.Sales}/members`, token: admin, payload: { userIds: [bobId] } });
    await changeMembers(slapd, 'dev', 'delete', 'bob');
    await changeMembers(slapd, 'sales', 'add', 'bob');
    expect(await teamsAfterSignIn(bob)).toEqual(['Ops:LDAP', 'Sales:ADMIN']);
    await changeMembers(slapd, 'dev', 'add', 'bob');
    expect(await teamsAfterSignIn(bob)).toEqual(['Dev:LDAP', 'Ops:LDAP', 'Sales:ADMIN']);
  });

  it('reads every team group in one search per directory subtree', () => {
    const searches = groupSearches([
      groupDn('sales'),
      groupDn('dev'),
      'CN=Ops,OU=Groups,DC=deskbook,DC=test',
      'cn=x,ou=nowhere,dc=deskbook,dc=test',
      'cn=y,dc=other',
    ]);
    expect(searches).toEqual([
      {
        base: 'dc=deskbook,dc=test',
        rdns: [
          ['cn', 'sales'],
          ['cn', 'dev'],
          ['CN', 'Ops'],
          ['cn', 'x'],
        ],
      },
      { base: 'dc=other', rdns: [['cn', 'y']] },
    ]);
    expect(normalizeDn('CN=A\\2C B, OU=G,dc=x')).toBe('cn=a, b,ou=g,dc=x');
  });
});
