import { and, asc, count, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { departments, displayTokens } from '../../db/schema.js';

export interface DisplayRow {
  id: string;
  departmentId: string;
  name: string;
  createdAt: Date;
}

const columns = { id: displayTokens.id, departmentId: displayTokens.departmentId, name: displayTokens.name, createdAt: displayTokens.createdAt };

/** The one writer of display_tokens (docs/people.md#the-lobby-display). */
export class DisplaysRepository {
  constructor(private readonly db: Database) {}

  async list(departmentId: string): Promise<DisplayRow[]> {
    return this.db
      .select(columns)
      .from(displayTokens)
      .where(eq(displayTokens.departmentId, departmentId))
      .orderBy(asc(displayTokens.createdAt), asc(displayTokens.id));
  }

  /** Adds a display unless the office has `max`; undefined: no such office; 'full': it has as many as it may. Serialised per office by locking its row. */
  async create(departmentId: string, name: string, tokenHash: string, createdBy: string, max: number, now: Date): Promise<DisplayRow | 'full' | undefined> {
    return this.db.transaction(async (tx) => {
      const [office] = await tx.select({ id: departments.id }).from(departments).where(eq(departments.id, departmentId)).for('no key update');
      if (!office) return undefined;
      const [held] = await tx.select({ total: count() }).from(displayTokens).where(eq(displayTokens.departmentId, departmentId));
      if ((held?.total ?? 0) >= max) return 'full';
      const [row] = await tx.insert(displayTokens).values({ departmentId, name, tokenHash, createdBy, createdAt: now }).returning(columns);
      return row!;
    });
  }

  /** The revoked display's token hash, or undefined when there is no such display. */
  async revoke(id: string): Promise<string | undefined> {
    const [row] = await this.db.delete(displayTokens).where(eq(displayTokens.id, id)).returning({ tokenHash: displayTokens.tokenHash });
    return row?.tokenHash;
  }

  /** The office of a token, by its hash (the unique index); undefined: no such token. */
  async officeOf(tokenHash: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ departmentId: displayTokens.departmentId })
      .from(displayTokens)
      .where(and(eq(displayTokens.tokenHash, tokenHash)));
    return row?.departmentId;
  }
}
