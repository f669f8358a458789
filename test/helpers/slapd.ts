import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A throwaway OpenLDAP server (Debian's slapd) on a free port, with a few people in it. */

export const SLAPD = '/usr/sbin/slapd';
export const SLAPADD = '/usr/sbin/slapadd';
export const SUFFIX = 'dc=deskbook,dc=test';
export const PEOPLE = `ou=people,${SUFFIX}`;
export const GROUPS = `ou=groups,${SUFFIX}`;
export const ROOT_DN = `cn=admin,${SUFFIX}`;
export const ROOT_PASSWORD = 'slapd-admin-secret';

export interface DirectoryPerson {
  uid: string;
  /** One address, or several (in this order: a search reads them back first to last). */
  mail: string | string[];
  givenName: string;
  sn: string;
  password: string;
}

/** A groupOfNames under ou=groups with these people (uids) as `member`s (at least one). */
export interface DirectoryGroup {
  cn: string;
  members: string[];
}

export const groupDn = (cn: string) => `cn=${cn},${GROUPS}`;
export const personDn = (uid: string) => `uid=${uid},${PEOPLE}`;

export interface Slapd {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

function ldif(people: DirectoryPerson[], groups: DirectoryGroup[]): string {
  const entries = [
    `dn: ${SUFFIX}\nobjectClass: dcObject\nobjectClass: organization\ndc: deskbook\no: Deskbook Test`,
    `dn: ${PEOPLE}\nobjectClass: organizationalUnit\nou: people`,
    ...people.map(
      (person) =>
        `dn: uid=${person.uid},${PEOPLE}\nobjectClass: inetOrgPerson\nuid: ${person.uid}\ncn: ${person.givenName} ${person.sn}\n` +
        `givenName: ${person.givenName}\nsn: ${person.sn}\n${[person.mail]
          .flat()
          .map((mail) => `mail: ${mail}\n`)
          .join('')}userPassword: ${person.password}`,
    ),
    ...(groups.length > 0 ? [`dn: ${GROUPS}\nobjectClass: organizationalUnit\nou: groups`] : []),
    ...groups.map(
      (group) => `dn: ${groupDn(group.cn)}\nobjectClass: groupOfNames\ncn: ${group.cn}\n${group.members.map((uid) => `member: ${personDn(uid)}`).join('\n')}`,
    ),
  ];
  return `${entries.join('\n\n')}\n`;
}

export async function startSlapd(people: DirectoryPerson[], groups: DirectoryGroup[] = []): Promise<Slapd> {
  if (!existsSync(SLAPD)) throw new Error(`${SLAPD} is missing: install Debian's slapd package (.ci/run does)`);
  const dir = mkdtempSync(path.join(tmpdir(), 'deskbook-slapd-'));
  mkdirSync(path.join(dir, 'db'));
  const conf = path.join(dir, 'slapd.conf');
  writeFileSync(
    conf,
    [
      'include /etc/ldap/schema/core.schema',
      'include /etc/ldap/schema/cosine.schema',
      'include /etc/ldap/schema/inetorgperson.schema',
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      `pidfile ${dir}/slapd.pid`,
      'database mdb',
      'maxsize 10485760',
      `suffix "${SUFFIX}"`,
      `rootdn "${ROOT_DN}"`,
      `rootpw ${ROOT_PASSWORD}`,
      `directory ${dir}/db`,
      'access to attrs=userPassword by self read by anonymous auth by * none',
      'access to * by * read',
      '',
    ].join('\n'),
  );
  writeFileSync(path.join(dir, 'data.ldif'), ldif(people, groups));
  const added = spawnSync(SLAPADD, ['-f', conf, '-l', path.join(dir, 'data.ldif')], { encoding: 'utf8' });
  if (added.status !== 0) throw new Error(`slapadd failed: ${added.stderr}`);

  const port = await freePort();
  const child: ChildProcess = spawn(SLAPD, ['-f', conf, '-h', `ldap://127.0.0.1:${port}/`, '-d', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const deadline = Date.now() + 15_000;
  while (!(await answers(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`slapd did not start: ${stderr}`);
    }
    await sleep(50);
  }
  return {
    url: `ldap://127.0.0.1:${port}`,
    port,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, sleep(5000)]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
