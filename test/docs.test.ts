import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERRORS_END, ERRORS_START, errorsTable } from '../scripts/docs.js';
import { projectPath } from '../src/shared/paths.js';

const between = (text: string, start: string, end: string) => text.slice(text.indexOf(start) + start.length, text.indexOf(end)).trim();

describe('generated documentation is current (run `npm run docs` after changing routes or errors)', () => {
  it('docs/errors.md lists the error catalogue', () => {
    const doc = readFileSync(projectPath('docs', 'errors.md'), 'utf8');
    expect(between(doc, ERRORS_START, ERRORS_END)).toBe(errorsTable());
  });
  // docs/openapi.json needs a running service, hence a database: test/http/openapi-current.test.ts (api tier).
});

/** GitHub's anchors of a Markdown file's headings (code blocks skipped; repeats get -1, -2, …). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && !entry.parentPath.split(path.sep).includes('node_modules'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('the repository explains itself', () => {
  const root = projectPath();
  const relative = (file: string) => path.relative(root, file);

  /** Where a cited `.md` path points: beside the citing file, from the repository root, or in docs/. */
  function resolveCitation(citingFile: string, cited: string): string | undefined {
    return [path.resolve(path.dirname(citingFile), cited), path.resolve(root, cited), path.resolve(root, 'docs', cited)].find((file) => existsSync(file));
  }

  function problemsOf(citingFile: string, cited: string, anchor: string | undefined): string[] {
    const target = resolveCitation(citingFile, cited);
    if (!target || !target.startsWith(root + path.sep)) return [`${relative(citingFile)} cites ${cited}, which is not a file of the repository`];
    if (anchor && !anchorsOf(readFileSync(target, 'utf8')).has(anchor))
      return [`${relative(citingFile)} cites ${cited}#${anchor}, but ${relative(target)} has no such heading`];
    return [];
  }

  it('code, tests, scripts and docs cite only Markdown files (and headings) that exist in the repository', () => {
    const files = [projectPath('README.md'), ...['src', 'web/src', 'test', 'scripts', '.ci', 'docs'].flatMap((dir) => filesUnder(projectPath(dir)))].filter(
      (file) => !/\.(png|jpe?g|webp|gif|ico)$/i.test(file),
    );
    expect(files.length).toBeGreaterThan(50);
    const problems: string[] = [];
    let citations = 0;
    for (const file of files) {
      // A path ending in .md, not part of a URL; an optional #anchor.
      for (const match of readFileSync(file, 'utf8').matchAll(/(?<![\w/.:-])((?:[\w.-]+\/)*[\w.-]+\.md)(?:#([\w-]+))?/g)) {
        citations++;
        problems.push(...problemsOf(file, match[1]!, match[2]));
      }
    }
    expect(citations).toBeGreaterThan(20);
    expect(problems).toEqual([]);
  });

  it('the README and docs/ link only to files and headings that exist', () => {
    const files = [projectPath('README.md'), ...filesUnder(projectPath('docs')).filter((file) => file.endsWith('.md'))];
    const problems: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\]\((?!https?:|mailto:)([^)\s#]*)(?:#([^)\s]+))?\)/g)) {
        const [, target, anchor] = match;
        if (!target) {
          if (anchor && !anchorsOf(text).has(anchor)) problems.push(`${relative(file)} links to #${anchor}, which it does not have`);
          continue;
        }
        const resolved = path.resolve(path.dirname(file), target);
        if (!existsSync(resolved)) problems.push(`${relative(file)} links to ${target}, which does not exist`);
        else if (anchor && target.endsWith('.md') && !anchorsOf(readFileSync(resolved, 'utf8')).has(anchor))
          problems.push(`${relative(file)} links to ${target}#${anchor}, which has no such heading`);
      }
    }
    expect(problems).toEqual([]);
  });
});
