import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { OidcBrowser } from '../../helpers/oidc-flow.js';
import { startOidcProvider, type TestProvider } from '../../helpers/oidc-provider.js';

/**
 * Team memberships from the single sign-on groups claim (OIDC_GROUPS_CLAIM, default `groups`;
 * docs/policies.md#teams) with the real test provider: matched to the teams' oidcGroup at each
 * sign-in; OIDC memberships follow the claim, ADMIN-made ones stay.
 */

const PUBLIC_URL = 'http://deskbook.test';

describe('teams from the groups claim', () => {
  let provider: TestProvider;
  let t: TestApp;
  let admin: string;
  const teamIds: Record<string, string> = {};

  const teamsAfterSignIn = async (sub: string) => {
    const { pair } = await new OidcBrowser(t, PUBLIC_URL).signIn(sub);
    const mine = await t.request({ method: 'GET', url: '/api/self/teams', token: pair!.accessToken });
    return { userId: pair!.userId, teams: mine.json<{ name: string; source: string }[]>().map((team) => `${team.name}:${team.source}`) };
  };

  beforeAll(async () => {
    provider = await startOidcProvider({ redirectUri: `${PUBLIC_URL}/api/auth/oidc/callback` });
    t = await createTestApp({
      env: {
        PUBLIC_URL,
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: provider.clientId,
        OIDC_CLIENT_SECRET: provider.clientSecret,
        OIDC_TIMEOUT: '2s',
        OIDC_AUTO_CREATE: 'true',
        LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '100000',
      },
    });
    admin = await t.adminToken();
    for (const [name, oidcGroup] of [
      ['Sales', 'sales'],
      ['Dev', 'dev'],
    ] as const) {
      teamIds[name] = (await t.request({ method: 'POST', url: '/api/teams', token: admin, payload: { name, oidcGroup } })).json<{ id: string }>().id;
    }
  });
  afterAll(async () => {
    await t?.close();
    await provider?.stop();
  });

  it('fills teams from the claim at each sign-in, exact values only, and leaves ADMIN-made memberships alone', async () => {
    const sub = 'team-person';
    const person = { sub, email: 'team.person@example.test', email_verified: true, given_name: 'Team', family_name: 'Person' };
    provider.accounts.set(sub, { ...person, groups: ['sales', 'DEV', 'staff'] });
    const first = await teamsAfterSignIn(sub);
    expect(first.teams).toEqual(['Sales:OIDC']);

    provider.accounts.set(sub, { ...person, groups: ['dev'] });
    await t.request({ method: 'POST', url: `/api/teams/${teamIds.Sales}/members`, token: admin, payload: { userIds: [first.userId] } });
    expect((await teamsAfterSignIn(sub)).teams).toEqual(['Dev:OIDC', 'Sales:ADMIN']);

    provider.accounts.set(sub, { ...person, groups: [] });
    expect((await teamsAfterSignIn(sub)).teams).toEqual(['Sales:ADMIN']);
  });
});
