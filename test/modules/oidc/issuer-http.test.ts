import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';

/** A plain-http issuer on another machine runs only when allowed, and says so at every start (docs/behaviour.md#single-sign-on-openid-connect). */
describe('OIDC_ALLOW_HTTP', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  const start = async (issuer: string, allow: boolean) => {
    const lines: string[] = [];
    const env = { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: 'deskbook', OIDC_CLIENT_SECRET: 'secret', OIDC_ALLOW_HTTP: String(allow) };
    apps.push(await createTestApp({ env, logLines: (line) => lines.push(line) }));
    return lines.map((line) => JSON.parse(line) as { level: number; msg: string; issuer?: string });
  };

  it('logs a warning at start for a remote plain-http issuer, none for a loopback one', async () => {
    const remote = await start('http://idp.example.test', true);
    expect(remote.filter((line) => line.level === 40 && line.msg.startsWith('OIDC_ISSUER is plain http'))).toEqual([
      expect.objectContaining({ issuer: 'http://idp.example.test' }),
    ]);
    const loopback = await start('http://127.0.0.1:9', false);
    expect(loopback.some((line) => line.msg.startsWith('OIDC_ISSUER is plain http'))).toBe(false);
  });
});
