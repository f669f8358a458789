/** Client-side routes: patterns like '/admin/departments/:departmentId' matched against a path. */

export type RouteParams = Record<string, string>;

export function matchRoute(pattern: string, pathname: string): RouteParams | undefined {
  const patternParts = pattern.split('/').filter(Boolean);
  const pathParts = pathname.replace(/\/+$/, '').split('/').filter(Boolean);
  if (patternParts.length !== pathParts.length) return undefined;
  const params: RouteParams = {};
  for (const [index, part] of patternParts.entries()) {
    const actual = pathParts[index]!;
    if (part.startsWith(':')) {
      try {
        params[part.slice(1)] = decodeURIComponent(actual);
      } catch {
        return undefined;
      }
    } else if (part !== actual) {
      return undefined;
    }
  }
  return params;
}

/**
 * Where to go after signing in: only a path of this site (never another origin, which would make
 * the sign-in page an open redirect), and never back to the sign-in page itself.
 */
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\') || next.startsWith('/sign-in')) return '/';
  return next;
}
