import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The package root, found from this file whether it runs from src/ (tsx, tests) or dist/. */
export function projectPath(...segments: string[]): string {
  if (root === undefined) {
    let dir = path.dirname(fileURLToPath(import.meta.url));
    while (!existsSync(path.join(dir, 'package.json'))) {
      const parent = path.dirname(dir);
      if (parent === dir) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
      dir = parent;
    }
    root = dir;
  }
  return path.join(root, ...segments);
}
