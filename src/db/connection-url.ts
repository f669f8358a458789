/**
 * `?host=/dir` in a postgres:// URL names a Unix socket directory, as in libpq (`psql` takes the
 * same URL); postgres.js takes it as an option, while in the URL it would send it to the server
 * as a setting. The embedded PostgreSQL is reached this way (docs/deployment.md#the-embedded-postgresql),
 * and DATABASE_URL may use it for any local server.
 */
export function clientUrl(url: string): { url: string; options: { host?: string } } {
  const parsed = new URL(url);
  const host = parsed.searchParams.get('host');
  if (!host?.startsWith('/')) return { url, options: {} };
  parsed.searchParams.delete('host');
  return { url: parsed.toString(), options: { host } };
}
