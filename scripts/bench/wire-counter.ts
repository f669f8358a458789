/**
 * Counts the statements PostgreSQL is sent, whichever layer sends them: a TCP proxy in front of the
 * server that reads the frontend side of the wire protocol and counts Execute ('E', extended
 * protocol: one per statement run, prepared or not) and Query ('Q', simple protocol: BEGIN, COMMIT,
 * SET …) messages. Parse, Bind, Describe and Sync are not statements and are not counted.
 */
import net from 'node:net';

const UNTYPED_REQUESTS = new Set([80877103 /* SSLRequest */, 80877104 /* GSSENCRequest */]);

export class WireCounter {
  /** Statements seen while counting is on. */
  count = 0;
  counting = false;
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    server: net.Server,
    /** The URL to connect to instead of the database's. */
    readonly url: string,
  ) {
    this.server = server;
  }

  /** A proxy on a free local port in front of the server of `databaseUrl`. */
  static async start(databaseUrl: string): Promise<WireCounter> {
    const target = new URL(databaseUrl);
    const connections: { counter?: WireCounter } = {};
    const server = net.createServer((client) => connections.counter!.relay(client, target.hostname, Number(target.port || 5432)));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    const proxied = new URL(databaseUrl);
    proxied.hostname = '127.0.0.1';
    proxied.port = String((server.address() as net.AddressInfo).port);
    connections.counter = new WireCounter(server, proxied.toString());
    return connections.counter;
  }

  private relay(client: net.Socket, host: string, port: number): void {
    const upstream = net.connect(port, host);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    upstream.pipe(client);
    let pending: Buffer = Buffer.alloc(0);
    let started = false;
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      // Whole messages only: the start-up packet and its forerunners carry no type byte.
      for (;;) {
        if (!started) {
          if (pending.length < 8) break;
          const length = pending.readInt32BE(0);
          if (pending.length < length) break;
          if (!UNTYPED_REQUESTS.has(pending.readInt32BE(4))) started = true;
          pending = pending.subarray(length);
          continue;
        }
        if (pending.length < 5) break;
        const length = pending.readInt32BE(1) + 1;
        if (pending.length < length) break;
        const type = String.fromCharCode(pending[0]!);
        if (this.counting && (type === 'E' || type === 'Q')) this.count++;
        pending = pending.subarray(length);
      }
    });
    client.on('end', () => upstream.end());
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
