/**
 * The bench's yardstick: a bare Fastify process (no auth, no plugins, no logger) against the same
 * PostgreSQL as the server under test. R1 is the framework's ceiling, R2 and R3 the cost of the
 * cheapest queries a real route makes. Started by scripts/bench.ts with PORT and DATABASE_URL;
 * without DATABASE_URL (a run on the embedded database alone) it serves R1 only.
 */
import Fastify from 'fastify';
import postgres from 'postgres';

const PAGE_SIZE = 20;

const databaseUrl = process.env.DATABASE_URL;
const port = Number(process.env.PORT);
if (!Number.isInteger(port)) {
  process.stderr.write('reference-server needs PORT (and DATABASE_URL for R2 and R3)\n');
  process.exit(1);
}

// About 200 bytes of JSON, like a small resource.
const CONSTANT = {
  id: '5f0c8a52-3f4e-4c1e-9a57-2d8f0b6e7c11',
  name: 'Desk 3.07-12',
  type: 'FLEX',
  roomId: '0b6f3a5e-9d2c-4e8a-b1f7-6c4d2e9a8b30',
  departmentId: '9e2d7c41-5a8b-4f36-8c0e-1d7b3a6f2e95',
  available: true,
};

const app = Fastify({ logger: false });

app.get('/r1', async () => CONSTANT);

// The pool size of the server under test (DATABASE_POOL_SIZE's default), so both get the same share of PostgreSQL.
const sql = databaseUrl ? postgres(databaseUrl, { max: 10, prepare: true, onnotice: () => {} }) : undefined;
if (sql) {
  const deskIds = (await sql<{ id: string }[]>`select id from desks`).map((row) => row.id);
  if (deskIds.length === 0) {
    process.stderr.write('reference-server: the desks table is empty\n');
    process.exit(1);
  }
  const pages = Math.ceil(deskIds.length / PAGE_SIZE);
  const randomIndex = (length: number) => Math.floor(Math.random() * length);

  app.get('/r2', async () => {
    const [desk] = await sql`select id, room_id, name, type, created_at, modified_at from desks where id = ${deskIds[randomIndex(deskIds.length)]!}`;
    return desk;
  });

  app.get('/r3', async () => {
    const offset = randomIndex(pages) * PAGE_SIZE;
    const [content, [count]] = await Promise.all([
      sql`select id, room_id, name, type, created_at, modified_at from desks order by name, id limit ${PAGE_SIZE} offset ${offset}`,
      sql<{ total: number }[]>`select count(*)::int as total from desks`,
    ]);
    return { content, totalElements: count!.total, number: offset / PAGE_SIZE, size: PAGE_SIZE };
  });
}

const stop = async () => {
  await app.close();
  await sql?.end({ timeout: 5 });
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());

await app.listen({ port, host: '127.0.0.1' });
