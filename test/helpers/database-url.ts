/**
 * PostgreSQL URLs of the test database: a TCP one (TEST_DATABASE_URL) or the embedded cluster's,
 * which may name a Unix socket directory in its `host` parameter (postgres.js and libpq read it).
 */

/** `url` with its database name replaced. */
export function withDatabase(url: string, name: string): string {
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}

/** Where `url` connects to: a host name or address, or a Unix socket directory (starts with '/'); and the port. */
export function serverAddress(url: string): { host: string; port: number; user: string; password?: string } {
  const parsed = new URL(url);
  const socketDir = parsed.searchParams.get('host');
  return {
    host: socketDir ?? (parsed.hostname || 'localhost'),
    port: Number(parsed.searchParams.get('port') ?? parsed.port ?? 5432) || 5432,
    user: decodeURIComponent(parsed.username || 'postgres'),
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
  };
}

/** `url` rewritten to reach the same database through a pooler listening on 127.0.0.1:`port`. */
export function throughLocalPort(url: string, port: number): string {
  const target = new URL(url);
  target.hostname = '127.0.0.1';
  target.port = String(port);
  target.searchParams.delete('host');
  target.searchParams.delete('port');
  return target.toString();
}
