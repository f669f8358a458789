import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { projectPath } from '../src/shared/paths.js';

// The rules of docs/architecture.md#rules-the-architecture-test-enforces, checked on the import statements
// of every source file (type-only imports and re-exports included: they couple folders too).

interface Import {
  from: string;
  to: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The file a relative specifier names ('./x.js' is ./x.ts or ./x.tsx, as TypeScript resolves it). */
function resolve(fromFile: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(fromFile), specifier);
  const stem = base.replace(/\.(js|jsx|ts|tsx)$/, '');
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.d.ts`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (existsSync(candidate) && !candidate.endsWith(path.sep)) return candidate;
  }
  return undefined;
}

/** Relative imports of every file under `root`, as paths relative to `root`. */
function importsUnder(root: string): Import[] {
  const edges: Import[] = [];
  for (const file of sourceFiles(root)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(file, fileName);
      if (target === undefined) throw new Error(`${path.relative(root, file)} imports ${fileName}, which does not exist`);
      if (target.startsWith(root + path.sep)) edges.push({ from: path.relative(root, file), to: path.relative(root, target) });
    }
  }
  return edges;
}

/** The folder a file belongs to: `modules/users`, `identity`, `infrastructure/images`, `features/search`, … (a root file stands for itself: `app.ts`, `config.ts`). */
function folderOf(file: string, nested: string[]): string {
  const parts = file.split(path.sep);
  if (parts.length === 1) return file;
  if (nested.includes(parts[0]!) && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return parts[0]!;
}

/** Strongly connected components of more than one folder (Tarjan): each is a set of folders that import each other in a circle. */
function folderCycles(edges: Array<[string, string]>): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const [from, to] of edges) {
    if (from === to) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    if (!graph.has(to)) graph.set(to, new Set());
    graph.get(from)!.add(to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)!) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles;
}

/**
 * Statements in `source` that write the `reservations` table: drizzle's insert/update/delete of the
 * `reservations` table object, or SQL text that inserts into, updates or deletes from it.
 */
export function reservationWrites(source: string): string[] {
  const drizzle = /\.(insert|update|delete)\(\s*reservations\s*\)/g;
  const text = /\b(insert\s+into|update|delete\s+from)\s+(only\s+)?("?public"?\.)?"?reservations"?(?![\w"])/gi;
  return [...source.matchAll(drizzle), ...source.matchAll(text)].map((match) => match[0].replace(/\s+/g, ' '));
}

const folderEdges = (edges: Import[], nested: string[]): Array<[string, string]> => edges.map(({ from, to }) => [folderOf(from, nested), folderOf(to, nested)]);

/**
 * The feature modules that may import another module's files, and why
 * (docs/architecture.md#rules-the-architecture-test-enforces). Anything else between two modules
 * fails: share through `shared/`, `identity/` or `db/`, or add an entry with its reason here.
 */
const MODULE_IMPORTS_ALLOWED: Record<string, string> = {
  'modules/attendance -> modules/reservations': 'walk-in and the release write reservations through the one writer; check-in reads them',
  'modules/reservations -> modules/approvals': 'the one writer asks for approval in the booking transaction (requestApprovals)',
  'modules/policies -> modules/approvals': "the booking check's context says whether an approval requirement could hold at the desk (APPROVAL_POSSIBLE)",
  'modules/closures -> modules/reservations': 'a closure cancels the reservations on its days through the one writer',
  'modules/series -> modules/reservations': "a series books its occurrences under the reservations' rules and repository",
  'modules/favourites -> modules/reservations': '"Book my usual" books each day through the one writer under its rules (docs/favourites.md#book-my-usual)',
  'modules/reservations -> modules/policies':
    "the one writer checks the owner's booking policies in its transaction (docs/policies.md#where-the-rules-are-checked)",
  'modules/auth -> modules/sessions': 'sign-in, refresh and sign-out create, rotate and end sessions',
  'modules/auth -> modules/users': 'sign-in finds the account and directory sign-in creates it',
  'modules/oidc -> modules/auth': 'single sign-on ends in the same token pair as sign-in (its schema and token service)',
  'modules/oidc -> modules/users': 'single sign-on finds or creates the account of an identity',
  'modules/password -> modules/users': 'a password link sets the password of a user row',
  'modules/password -> modules/preferences': "a password link mail is written in the person's language (preferences.access.ts)",
  'modules/reports -> modules/preferences': "the report status mail is written in the reporter's language (preferences.access.ts)",
  'modules/closures -> modules/preferences': "the closure mail is written in each owner's language (preferences.access.ts)",
  'modules/reservations -> modules/preferences': "the booked-for-you mail and push are written in the person's language (preferences.access.ts)",
  'modules/approvals -> modules/preferences': "the approvers' mail and the decision mail and push are written in each one's language (preferences.access.ts)",
  'modules/attendance -> modules/preferences':
    "the check-in push and the QR label sheet are written in the owner's or the asking admin's language (preferences.access.ts)",
  'modules/avatars -> modules/users': 'a picture belongs to a user and answers the user DTO',
  'modules/department-images -> modules/inventory': "a department's picture answers the department DTO",
  'modules/search -> modules/inventory': 'room and department search answers inventory DTOs',
  'modules/search -> modules/reports': 'report search answers report DTOs',
  'modules/reservations -> modules/teams':
    'a manager of a team books for its members (docs/policies.md#booking-for-someone-else), read through teams.access.ts',
  'modules/reservations -> modules/delegates': 'a delegate books for the person who named them, read through delegates.access.ts',
  'modules/auth -> modules/teams': "directory sign-in keeps the person's LDAP team memberships in step (teams.access.ts)",
  'modules/oidc -> modules/teams': "single sign-on keeps the person's OIDC team memberships in step (teams.access.ts)",
  'modules/attendance -> modules/notifications':
    "the release and the check-in reminders queue their notices as the owner's switches allow (notifications.queue.ts)",
  'modules/approvals -> modules/notifications': "a decision or an expiry queues the owner's notice as their switches allow (notifications.queue.ts)",
  'modules/reservations -> modules/notifications': "a booking by someone else queues the owner's notice as their switches allow (notifications.queue.ts)",
  'modules/people -> modules/teams': "who's in groups by team and shows names to team mates (teams.access.ts; docs/people.md#who-is-in)",
  'modules/people -> modules/organisation': "names follow the organisation's nameVisibility (organisation.access.ts; docs/people.md#what-is-shown-to-whom)",
  'modules/attendance -> modules/organisation':
    "works-council mode shows attendance as aggregates only, and the release notice falls back on the organisation's language (organisation.access.ts; docs/people.md#works-council-mode)",
  'modules/preferences -> modules/organisation':
    "a person who chose no language gets the organisation's default (organisation.access.ts; docs/i18n.md#choosing-the-language)",
  'modules/calendar -> modules/organisation':
    "the feed and invitations of a person who chose no language use the organisation's default (organisation.access.ts)",
  'modules/displays -> modules/people': "the lobby display shows the office's bookings under the same rules (people.repository.ts, people.visibility.ts)",
};

/** The server's folders below the feature modules: they never import one. */
const LOWER_FOLDERS = ['db', 'shared', 'infrastructure/'];

const distinct = (pairs: Array<[string, string]>): string[] => [...new Set(pairs.filter(([from, to]) => from !== to).map(([from, to]) => `${from} -> ${to}`))];

const violations = {
  serverCycles: (edges: Array<[string, string]>) => folderCycles(edges),
  lowerImportsModule: (edges: Array<[string, string]>) =>
    distinct(
      edges.filter(
        ([from, to]) => LOWER_FOLDERS.some((lower) => from === lower || (lower.endsWith('/') && from.startsWith(lower))) && to.startsWith('modules/'),
      ),
    ),
  crossModule: (edges: Array<[string, string]>) =>
    distinct(edges.filter(([from, to]) => from.startsWith('modules/') && to.startsWith('modules/'))).filter((pair) => !(pair in MODULE_IMPORTS_ALLOWED)),
};

describe('architecture', () => {
  const server = importsUnder(projectPath('src'));
  const web = importsUnder(projectPath('web', 'src'));
  const serverFolders = folderEdges(server, ['modules', 'infrastructure']);
  const webFolders = folderEdges(web, ['features']);

  it('finds the imports it checks (a parser that sees nothing would pass everything)', () => {
    expect(serverFolders).toContainEqual(['modules/search', 'modules/inventory']);
    expect(serverFolders).toContainEqual(['modules/users', 'identity']);
    expect(webFolders.some(([from, to]) => from.startsWith('features/') && to === 'api')).toBe(true);
    expect(
      folderCycles([
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
        ['c', 'd'],
      ]),
    ).toEqual([['a', 'b', 'c']]);
  });

  it('no folder cycle anywhere in the server (identity, infrastructure, plugins, shared, db and the root files count as folders)', () => {
    expect(violations.serverCycles(serverFolders)).toEqual([]);
  });

  it('db, shared and infrastructure import no feature module (a module plugs into them, never the other way)', () => {
    expect(violations.lowerImportsModule(serverFolders)).toEqual([]);
  });

  it('shared builds no SQL: src/shared imports neither src/db nor a database package', () => {
    const sqlImports = sourceFiles(projectPath('src', 'shared')).flatMap((file) =>
      ts
        .preProcessFile(readFileSync(file, 'utf8'), true, true)
        .importedFiles.map(({ fileName }) => fileName)
        .filter((name) => /^(drizzle-orm|postgres)(\/|$)/.test(name) || /(^|\/)db\//.test(name))
        .map((name) => `${path.relative(projectPath('src'), file)} -> ${name}`),
    );
    expect(sqlImports).toEqual([]);
  });

  it('a feature module imports another only where the allow-list says why', () => {
    expect(violations.crossModule(serverFolders)).toEqual([]);
    // Every allowed pair is still used: a stale entry would allow a new coupling silently.
    const used = new Set(serverFolders.map(([from, to]) => `${from} -> ${to}`));
    expect(Object.keys(MODULE_IMPORTS_ALLOWED).filter((pair) => !used.has(pair))).toEqual([]);
  });

  it("no feature imports another feature's service", () => {
    const offending = server
      .filter(({ from, to }) => {
        const source = folderOf(from, ['modules']);
        const target = folderOf(to, ['modules']);
        return source.startsWith('modules/') && target.startsWith('modules/') && source !== target && to.endsWith('.service.ts');
      })
      .map(({ from, to }) => `${from} -> ${to}`);
    expect(offending).toEqual([]);
  });

  // docs/architecture.md#the-one-writer-of-reservations: every rule of a booking holds on every path that writes one.
  it('only the reservations module writes the reservations table', () => {
    expect(reservationWrites('await tx.update(reservations).set({})')).toEqual(['.update(reservations)']);
    expect(reservationWrites('sql`delete from reservations where id = ${id}`')).toEqual(['delete from reservations']);
    expect(reservationWrites('sql`update "reservations" set end_time = now()`')).toEqual(['update "reservations"']);
    expect(reservationWrites('.insert(reservationSeries) … insert into reservation_series … update attendance')).toEqual([]);
    const root = projectPath('src');
    const own = path.join(root, 'modules', 'reservations') + path.sep;
    const writers = sourceFiles(root).filter((file) => reservationWrites(readFileSync(file, 'utf8')).length > 0);
    expect(writers.some((file) => file.startsWith(own))).toBe(true);
    const offending = writers
      .filter((file) => !file.startsWith(own))
      .map((file) => `${path.relative(root, file)}: ${reservationWrites(readFileSync(file, 'utf8')).join(', ')}`);
    expect(offending).toEqual([]);
  });

  it('no folder cycle anywhere in the web app (api, lib, components and each feature count as folders)', () => {
    expect(folderCycles(webFolders)).toEqual([]);
  });

  it('each rule fails on a deliberate violation (the checks can fail)', () => {
    // A cycle that runs through no module: shared -> db -> shared.
    expect(violations.serverCycles([...serverFolders, ['shared', 'db']])).toEqual([['db', 'shared']]);
    // Infrastructure and db reaching into a module.
    expect(violations.lowerImportsModule([...serverFolders, ['infrastructure/housekeeping', 'modules/sessions'], ['db', 'modules/stats']])).toEqual([
      'infrastructure/housekeeping -> modules/sessions',
      'db -> modules/stats',
    ]);
    // A module reaching into another without an entry in the allow-list.
    expect(violations.crossModule([...serverFolders, ['modules/sessions', 'modules/stats']])).toEqual(['modules/sessions -> modules/stats']);
    // A web cycle between two shared folders.
    expect(folderCycles([...webFolders, ['api', 'lib'], ['lib', 'api']]).length).toBeGreaterThan(0);
  });
});
