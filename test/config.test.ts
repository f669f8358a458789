import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { serverOptions } from '../src/app.js';
import { ConfigError, configurationTable, loadConfig, type Environment } from '../src/config.js';

/** Runs loadConfig and answers the ConfigError it throws (fails the test when it does not throw one). */
function configError(env: Environment): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw new Error(`expected a ConfigError, got ${String(error)}`, { cause: error });
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(env)}, but loadConfig accepted it`);
}

describe('loadConfig', () => {
  describe('defaults', () => {
    it('uses the documented defaults for an empty environment', () => {
      const config = loadConfig({});
      expect(config.PORT).toBe(8080);
      expect(config.HOST).toBe('127.0.0.1');
      expect(config.DATA_DIR).toBe('./data');
      expect(config.DATABASE_URL).toBeUndefined();
      expect(config.ADMIN_EMAIL).toBeUndefined();
      expect(config.ADMIN_PASSWORD).toBeUndefined();
      expect(config.JWT_SECRET).toBeUndefined();
      expect(config.ACCESS_TOKEN_TTL).toBe(15 * 60_000);
      expect(config.REFRESH_TOKEN_TTL).toBe(30 * 86_400_000);
      expect(config.LOGIN_MAX_FAILURES_PER_ACCOUNT).toBe(10);
      expect(config.LOGIN_ACCOUNT_WINDOW).toBe(15 * 60_000);
      expect(config.LOGIN_MAX_ATTEMPTS_PER_ADDRESS).toBe(100);
      expect(config.LOGIN_ADDRESS_WINDOW).toBe(60_000);
      expect(config.LOGIN_DELAY_AFTER_FAILURES).toBe(5);
      expect(config.LOGIN_DELAY_BASE).toBe(1000);
      expect(config.LOGIN_DELAY_MAX).toBe(60_000);
      expect(config.TRUST_PROXY).toBe(false);
      expect(config.LOG_LEVEL).toBe('info');
      expect(config.BODY_LIMIT_BYTES).toBe(1024 * 1024);
      expect(config.PUBLIC_URL).toBe('http://localhost:8080');
      expect(config.RESERVATION_MAX_LENGTH).toBe(24 * 3_600_000);
      expect(config.RESERVATION_HORIZON).toBe(90 * 86_400_000);
      expect(config.RESERVATION_ONE_PER_USER).toBe(true);
      // docs/behaviour.md#passwords-chosen-by-someone-else: on unless turned off.
      expect(config.PASSWORD_CHANGE_AFTER_ADMIN_SET).toBe(true);
      expect(config.EXPENSIVE_CONCURRENCY_PER_USER).toBe(3);
      expect(config.AVATAR_MAX_PIXELS).toBe(16_000_000);
      expect(config.IMAGE_DECODE_MEMORY).toBe(64 * 1024 * 1024);
    });

    it('reads a renamed key under its former name when the new one is unset (OUTBOX_INTERVAL, formerly CALENDAR_MAIL_INTERVAL)', () => {
      expect(loadConfig({}).OUTBOX_INTERVAL).toBe(5000);
      expect(loadConfig({ CALENDAR_MAIL_INTERVAL: '0', CALENDAR_MAIL_LEASE: '30s' })).toMatchObject({ OUTBOX_INTERVAL: 0, OUTBOX_LEASE: 30_000 });
      expect(loadConfig({ CALENDAR_MAIL_INTERVAL: '0', OUTBOX_INTERVAL: '2s' }).OUTBOX_INTERVAL).toBe(2000);
    });

    it('derives PUBLIC_URL from PORT unless it is set', () => {
      expect(loadConfig({ PORT: '8091' }).PUBLIC_URL).toBe('http://localhost:8091');
      expect(loadConfig({ PORT: '8091', PUBLIC_URL: 'https://desks.example.org' }).PUBLIC_URL).toBe('https://desks.example.org');
    });

    it('treats an empty value as unset', () => {
      const config = loadConfig({ PORT: '', HOST: '', ACCESS_TOKEN_TTL: '', DATABASE_URL: '' });
      expect(config.PORT).toBe(8080);
      expect(config.HOST).toBe('127.0.0.1');
      expect(config.ACCESS_TOKEN_TTL).toBe(15 * 60_000);
      expect(config.DATABASE_URL).toBeUndefined();
    });

    it('takes given values over the defaults', () => {
      const config = loadConfig({
        PORT: '3000',
        HOST: '0.0.0.0',
        DATA_DIR: '/var/lib/deskbook',
        DATABASE_URL: 'postgres://deskbook:pw@db.example:5432/deskbook',
        LOG_LEVEL: 'WARN',
        LOGIN_MAX_FAILURES_PER_ACCOUNT: '3',
        ADMIN_EMAIL: 'boss@example.test',
        ADMIN_PASSWORD: 'long-enough-password',
      });
      expect(config.PORT).toBe(3000);
      expect(config.HOST).toBe('0.0.0.0');
      expect(config.DATA_DIR).toBe('/var/lib/deskbook');
      expect(config.DATABASE_URL).toBe('postgres://deskbook:pw@db.example:5432/deskbook');
      expect(config.LOG_LEVEL).toBe('warn');
      expect(config.LOGIN_MAX_FAILURES_PER_ACCOUNT).toBe(3);
      expect(config.ADMIN_EMAIL).toBe('boss@example.test');
      expect(config.ADMIN_PASSWORD).toBe('long-enough-password');
    });

    it('accepts postgresql:// as well as postgres://', () => {
      expect(loadConfig({ DATABASE_URL: 'postgresql://u@h/db' }).DATABASE_URL).toBe('postgresql://u@h/db');
    });
  });

  describe('durations', () => {
    it.each([
      ['90s', 90_000],
      ['15m', 15 * 60_000],
      ['2h', 2 * 3_600_000],
      ['1d', 86_400_000],
      ['120', 120_000],
      ['30000ms', 30_000],
      [' 45s ', 45_000],
    ])('ACCESS_TOKEN_TTL=%j is %d ms', (raw, ms) => {
      expect(loadConfig({ ACCESS_TOKEN_TTL: raw }).ACCESS_TOKEN_TTL).toBe(ms);
    });

    it('reads every duration key the same way', () => {
      const config = loadConfig({
        REFRESH_TOKEN_TTL: '7d',
        LOGIN_ACCOUNT_WINDOW: '2h',
        LOGIN_ADDRESS_WINDOW: '90',
        SHUTDOWN_TIMEOUT: '500ms',
        LOGIN_DELAY_BASE: '2s',
        LOGIN_DELAY_MAX: '5m',
      });
      expect(config.LOGIN_DELAY_BASE).toBe(2000);
      expect(config.LOGIN_DELAY_MAX).toBe(5 * 60_000);
      expect(config.REFRESH_TOKEN_TTL).toBe(7 * 86_400_000);
      expect(config.LOGIN_ACCOUNT_WINDOW).toBe(2 * 3_600_000);
      expect(config.LOGIN_ADDRESS_WINDOW).toBe(90_000);
      expect(config.SHUTDOWN_TIMEOUT).toBe(500);
    });

    it.each(['5x', '15 minutes', '-5m', '1.5h', 'm', '2d'])('refuses ACCESS_TOKEN_TTL=%j', (raw) => {
      // 2d is well-formed but above the one-day maximum of an access token.
      const error = configError({ ACCESS_TOKEN_TTL: raw });
      expect(error.problems).toHaveLength(1);
      expect(error.problems[0]).toMatch(/^ACCESS_TOKEN_TTL /);
    });
  });

  describe('TRUST_PROXY', () => {
    it('takes true/false, a hop count or a list of addresses and CIDRs', () => {
      expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
      expect(loadConfig({ TRUST_PROXY: 'FALSE' }).TRUST_PROXY).toBe(false);
      expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
      expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '127.0.0.1', '::1']);
    });
  });

  describe('bad values', () => {
    const bad: Environment = {
      PORT: 'abc',
      DATABASE_URL: 'mysql://x',
      LOG_LEVEL: 'loud',
      ACCESS_TOKEN_TTL: '5x',
      TRUST_PROXY: 'maybe',
      JWT_SECRET: 'too-short-jwt-secret-7f3a',
    };

    it.each(Object.entries(bad))('refuses %s=%j alone, naming the key', (key, value) => {
      const error = configError({ [key]: value });
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe('ConfigError');
      expect(error.problems).toHaveLength(1);
      expect(error.problems[0]!.startsWith(`${key} `)).toBe(true);
      expect(error.message).toContain(key);
    });

    it('refuses a port out of range', () => {
      const error = configError({ PORT: '70000' });
      expect(error.problems).toHaveLength(1);
      expect(error.problems[0]).toMatch(/^PORT /);
      expect(configError({ PORT: '-1' }).problems[0]).toMatch(/^PORT /);
      expect(configError({ PORT: '80.5' }).problems[0]).toMatch(/^PORT /);
    });

    it('reports every bad key at once', () => {
      const error = configError(bad);
      const keys = Object.keys(bad);
      expect(error.problems).toHaveLength(keys.length);
      for (const key of keys) {
        expect(error.problems.filter((problem) => problem.startsWith(`${key} `))).toHaveLength(1);
        expect(error.message).toContain(key);
      }
      // Good keys next to bad ones are not reported.
      expect(error.message).not.toMatch(/\bHOST\b|\bDATA_DIR\b/);
    });

    it('echoes a bad ordinary value so the operator sees what was read', () => {
      const error = configError({ PORT: '70000', LOG_LEVEL: 'loud' });
      expect(error.message).toContain('70000');
      expect(error.message).toContain('loud');
    });

    it('never echoes a secret in the message', () => {
      const jwtSecret = 'short-jwt-secret-Zq81';
      const adminPassword = 'pw-Zq8';
      const error = configError({ JWT_SECRET: jwtSecret, ADMIN_EMAIL: 'boss@example.test', ADMIN_PASSWORD: adminPassword });
      expect(error.problems.map((problem) => problem.split(' ')[0]).sort()).toEqual(['ADMIN_PASSWORD', 'JWT_SECRET']);
      expect(error.message).not.toContain(jwtSecret);
      expect(error.message).not.toContain(adminPassword);
      for (const problem of error.problems) {
        expect(problem).not.toContain(jwtSecret);
        expect(problem).not.toContain(adminPassword);
      }
    });

    it('never echoes the password inside a bad DATABASE_URL', () => {
      const dbPassword = 'db-pass-Zq81x';
      const error = configError({ DATABASE_URL: `mysql://deskbook:${dbPassword}@db.example/deskbook` });
      expect(error.problems).toHaveLength(1);
      expect(error.problems[0]).toMatch(/^DATABASE_URL /);
      expect(error.message).not.toContain(dbPassword);
    });

    it('requires ADMIN_PASSWORD when ADMIN_EMAIL is set', () => {
      const error = configError({ ADMIN_EMAIL: 'boss@example.test' });
      expect(error.problems).toHaveLength(1);
      expect(error.problems[0]).toContain('ADMIN_PASSWORD');
      expect(error.message).toContain('ADMIN_EMAIL');
    });

    it('refuses a read replica without a PostgreSQL primary, and a lag bound below 1 s', () => {
      const error = configError({ DATABASE_READ_URL: 'postgres://replica:5432/deskbook' });
      expect(error.problems).toEqual(['DATABASE_READ_URL needs DATABASE_URL (the embedded database has no replica)']);
      const lag = configError({
        DATABASE_URL: 'postgres://primary/deskbook',
        DATABASE_READ_URL: 'postgres://replica/deskbook',
        DATABASE_READ_MAX_LAG: '500ms',
      });
      expect(lag.problems).toHaveLength(1);
      expect(lag.problems[0]).toMatch(/^DATABASE_READ_MAX_LAG /);
      const config = loadConfig({ DATABASE_URL: 'postgres://primary/deskbook', DATABASE_READ_URL: 'postgres://replica/deskbook' });
      expect(config.DATABASE_READ_MAX_LAG).toBe(5000);
    });

    it('refuses an ADMIN_EMAIL that is not an e-mail address', () => {
      const error = configError({ ADMIN_EMAIL: 'not-an-email', ADMIN_PASSWORD: 'long-enough-password' });
      expect(error.problems).toHaveLength(1);
      expect(error.problems[0]).toMatch(/^ADMIN_EMAIL /);
    });
  });
});

describe('PASSWORD_HASH_COST (docs/testing.md#password-hashing-in-tests)', () => {
  it('is standard by default', () => {
    expect(loadConfig({}).PASSWORD_HASH_COST).toBe('standard');
  });

  it.each([[undefined], ['production'], ['development'], ['']])('refuses minimal with NODE_ENV=%j', (nodeEnv) => {
    const error = configError({ PASSWORD_HASH_COST: 'minimal', NODE_ENV: nodeEnv });
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatch(/^PASSWORD_HASH_COST=minimal is for test suites only and needs NODE_ENV=test/);
  });

  it('takes minimal under NODE_ENV=test only, and refuses other values', () => {
    expect(loadConfig({ PASSWORD_HASH_COST: 'minimal', NODE_ENV: 'test' }).PASSWORD_HASH_COST).toBe('minimal');
    expect(configError({ PASSWORD_HASH_COST: 'none', NODE_ENV: 'test' }).problems[0]).toMatch(/^PASSWORD_HASH_COST must be one of standard, minimal/);
  });
});

describe('HTTP limits (docs/behaviour.md, HTTP)', () => {
  it('cut a slow request within 30 s by default and cap the connections', () => {
    const config = loadConfig({});
    expect(config.HTTP_REQUEST_TIMEOUT).toBeGreaterThan(0);
    expect(config.HTTP_REQUEST_TIMEOUT).toBeLessThanOrEqual(30_000);
    expect(config.HTTP_HEADERS_TIMEOUT).toBeGreaterThan(0);
    expect(config.HTTP_HEADERS_TIMEOUT).toBeLessThanOrEqual(config.HTTP_REQUEST_TIMEOUT);
    expect(config.HTTP_KEEP_ALIVE_TIMEOUT).toBeGreaterThanOrEqual(5000);
    expect(config.HTTP_KEEP_ALIVE_TIMEOUT).toBeLessThanOrEqual(72_000);
    expect(config.HTTP_MAX_CONNECTIONS).toBe(1024);
  });

  it('hand the timeouts to the HTTP server, checked at least every second', () => {
    const options = serverOptions(loadConfig({ HTTP_REQUEST_TIMEOUT: '20s', HTTP_HEADERS_TIMEOUT: '5s', HTTP_KEEP_ALIVE_TIMEOUT: '65s' }), false);
    expect(options).toMatchObject({ requestTimeout: 20_000, keepAliveTimeout: 65_000 });
    expect(options.http).toMatchObject({ requestTimeout: 20_000, headersTimeout: 5000 });
    expect(options.http?.connectionsCheckingInterval).toBeLessThanOrEqual(1000);
  });

  it('refuse headers allowed longer than the whole request', () => {
    const error = configError({ HTTP_REQUEST_TIMEOUT: '5s', HTTP_HEADERS_TIMEOUT: '6s' });
    expect(error.problems).toEqual(['HTTP_HEADERS_TIMEOUT must not be longer than HTTP_REQUEST_TIMEOUT']);
    expect(configError({ HTTP_MAX_CONNECTIONS: '0' }).problems[0]).toMatch(/^HTTP_MAX_CONNECTIONS /);
  });
});

describe('reservation length bounds', () => {
  it('refuse a shortest reservation longer than the longest', () => {
    expect(configError({ RESERVATION_MIN_LENGTH: '2h', RESERVATION_MAX_LENGTH: '1h' }).problems).toEqual([
      'RESERVATION_MIN_LENGTH must not be longer than RESERVATION_MAX_LENGTH',
    ]);
    expect(loadConfig({ RESERVATION_MIN_LENGTH: '1h', RESERVATION_MAX_LENGTH: '1h' }).RESERVATION_MIN_LENGTH).toBe(3_600_000);
    expect(loadConfig({}).RESERVATION_MIN_LENGTH).toBe(15 * 60_000);
  });
});

describe('a plain-http OIDC issuer (docs/behaviour.md#single-sign-on-openid-connect)', () => {
  const oidc = { OIDC_CLIENT_ID: 'deskbook', OIDC_CLIENT_SECRET: 'secret' };

  it('is refused for another machine unless OIDC_ALLOW_HTTP is set', () => {
    for (const issuer of ['http://idp.example.test', 'http://10.0.0.5:8080/realms/x', 'http://[2001:db8::1]/', 'http://127.0.0.1.example.test']) {
      expect(configError({ ...oidc, OIDC_ISSUER: issuer }).problems, issuer).toEqual([
        'OIDC_ISSUER must be https:// (http:// only for a loopback address, or with OIDC_ALLOW_HTTP=true)',
      ]);
      expect(loadConfig({ ...oidc, OIDC_ISSUER: issuer, OIDC_ALLOW_HTTP: 'true' }).OIDC_ISSUER).toBe(issuer);
    }
  });

  it('is accepted on a loopback address, and https anywhere', () => {
    for (const issuer of ['http://127.0.0.1:9000', 'http://localhost:9000/realms/x', 'http://[::1]:9000', 'http://127.8.9.10', 'https://idp.example.test']) {
      expect(loadConfig({ ...oidc, OIDC_ISSUER: issuer }).OIDC_ALLOW_HTTP, issuer).toBe(false);
    }
  });
});

describe('docs/configuration.md', () => {
  it('holds exactly the generated configuration table between its markers', () => {
    const file = fileURLToPath(new URL('../docs/configuration.md', import.meta.url));
    expect(existsSync(file), `${file} is missing; generate it with npm run docs`).toBe(true);
    const text = readFileSync(file, 'utf8');
    const start = '<!-- config:start -->';
    const end = '<!-- config:end -->';
    expect(text.split(start)).toHaveLength(2);
    expect(text.split(end)).toHaveLength(2);
    const from = text.indexOf(start) + start.length;
    const to = text.indexOf(end);
    expect(to).toBeGreaterThan(from);
    expect(text.slice(from, to).trim()).toBe(configurationTable());
  });

  it('documents every key of the configuration', () => {
    const table = configurationTable();
    for (const key of Object.keys(loadConfig({}))) expect(table).toContain(`| \`${key}\` |`);
  });
});
