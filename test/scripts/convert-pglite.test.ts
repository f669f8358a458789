import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/identity/password-hashing.js';
import { convertPgliteDataDir, loadPglite, migratePglite } from '../../scripts/convert-pglite/convert.js';
import { call } from '../helpers/load.js';
import { freePort, killServers, startServer, waitHealthy } from '../helpers/server-process.js';

/**
 * A DATA_DIR of Deskbook ≤ 0.1 (PGlite) is carried over into the embedded PostgreSQL by
 * `npm run db:convert-pglite` (docs/deployment.md#from-pglite-to-the-embedded-postgresql): the
 * old database is made here with the PGlite version that wrote such folders, at an older
 * migration, with rows whose text needs escaping; after the conversion a server on the folder
 * signs the old user in and shows the old reservation.
 */

const dirs: string[] = [];
afterAll(async () => {
  await killServers();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('npm run db:convert-pglite', () => {
  it('carries an old PGlite DATA_DIR over, counts checked, the old folder kept', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'deskbook-legacy-'));
    chmodSync(dataDir, 0o755);
    dirs.push(dataDir);
    const { PGlite, extensions } = await loadPglite(path.join(dataDir, '.pglite-converter'), () => {});
    const old = new PGlite(path.join(dataDir, 'pgdata'), { extensions });
    await old.waitReady;
    await migratePglite(old, 3); // an early install: migrations 0000–0002 (people, offices, reservations)
    const passwordHash = await hashPassword('old-password-1');
    await old.query(
      `insert into users (email, first_name, last_name, role, password_hash) values ('old@example.test', 'Tab\tand', 'New\nline \\ slash', 'ADMIN', $1)`,
      [passwordHash],
    );
    await old.exec(`
      insert into departments (location, building, floor) values ('Berlin', 'HQ', 1);
      insert into rooms (department_id, name) select id, 'Atlas' from departments;
      insert into desks (room_id, name) select id, 'Desk 1' from rooms;
      insert into reservations (user_id, desk_id, start_time, end_time) select u.id, d.id, '2031-02-03T08:00Z', '2031-02-03T12:00Z' from users u, desks d;`);
    await old.close();

    const result = await convertPgliteDataDir({ dataDir });
    expect(result.tables.find((table) => table.name === 'reservations')).toEqual({ name: 'reservations', rows: 1 });
    expect(result.tables.find((table) => table.name === 'users')).toEqual({ name: 'users', rows: 1 });
    expect(readdirSync(dataDir).sort()).toEqual(['postgres', path.basename(result.keptAs)].sort());
    expect(existsSync(path.join(result.keptAs, 'PG_VERSION'))).toBe(true);

    const server = startServer({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, await freePort());
    await waitHealthy(server);
    const login = await call(server, 'POST', '/api/auth/login', { body: { email: 'old@example.test', password: 'old-password-1' } });
    expect(login.status).toBe(200);
    const token = ((await login.json()) as { accessToken: string }).accessToken;
    const self = (await (await call(server, 'GET', '/api/self', { token })).json()) as { firstName: string; lastName: string };
    expect(self).toMatchObject({ firstName: 'Tab\tand', lastName: 'New\nline \\ slash' });
    const list = (await (await call(server, 'GET', '/api/reservation', { token })).json()) as { content: { startTime: string }[] };
    expect(list.content.map((item) => item.startTime)).toEqual(['2031-02-03T08:00:00.000Z']);
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
  }, 180_000);

  it('refuses while nothing is there to convert', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'deskbook-legacy-'));
    dirs.push(dataDir);
    await expect(convertPgliteDataDir({ dataDir })).rejects.toThrow('holds no PGlite database');
  });
});
