import { ensureWebBuiltForTests } from './browser.js';

/**
 * Global setup of the `system` project: the web app is built once, before its files run two at a
 * time (docs/testing.md#tiers), so no two browser files build dist/web at once.
 */
export default function setup(): void {
  ensureWebBuiltForTests();
}
