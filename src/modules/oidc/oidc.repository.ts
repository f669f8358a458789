import { and, eq, gt, lt } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { oidcFlows, oidcIdentities } from '../../db/schema.js';
import type { PurgeJob } from '../../infrastructure/housekeeping/housekeeping.js';

export type OidcIdentityRow = typeof oidcIdentities.$inferSelect;

/** One-time codes of finished sign-ins (a sign-in in progress lives in its cookie) and the links between provider identities and local users. */
export class OidcRepository {
  constructor(private readonly db: Database) {}

  async storeCode(values: { codeHash: string; bindingHash: string; userId: string; now: Date; expiresAt: Date }): Promise<void> {
    await this.db.insert(oidcFlows).values({ ...values, createdAt: values.now });
  }

  /** Takes a one-time code once; answers whose it was. */
  async takeCode(codeHash: string, bindingHash: string, now: Date): Promise<string | undefined> {
    const [row] = await this.db
      .delete(oidcFlows)
      .where(and(eq(oidcFlows.codeHash, codeHash), eq(oidcFlows.bindingHash, bindingHash), gt(oidcFlows.expiresAt, now)))
      .returning({ userId: oidcFlows.userId });
    return row?.userId ?? undefined;
  }

  async purgeExpired(now: Date): Promise<void> {
    await this.db.delete(oidcFlows).where(lt(oidcFlows.expiresAt, now));
  }

  async findIdentity(issuer: string, subject: string): Promise<OidcIdentityRow | undefined> {
    const [row] = await this.db
      .select()
      .from(oidcIdentities)
      .where(and(eq(oidcIdentities.issuer, issuer), eq(oidcIdentities.subject, subject)))
      .limit(1);
    return row;
  }

  async findIdentityOfUser(userId: string, issuer: string): Promise<OidcIdentityRow | undefined> {
    const [row] = await this.db
      .select()
      .from(oidcIdentities)
      .where(and(eq(oidcIdentities.userId, userId), eq(oidcIdentities.issuer, issuer)))
      .limit(1);
    return row;
  }

  /** Links unless the identity or the user's link to this issuer exists; answers undefined then. */
  async link(values: { issuer: string; subject: string; userId: string; now: Date }): Promise<OidcIdentityRow | undefined> {
    const [row] = await this.db
      .insert(oidcIdentities)
      .values({ issuer: values.issuer, subject: values.subject, userId: values.userId, createdAt: values.now })
      .onConflictDoNothing()
      .returning();
    return row;
  }

  async unlink(userId: string, issuer: string): Promise<boolean> {
    const rows = await this.db
      .delete(oidcIdentities)
      .where(and(eq(oidcIdentities.userId, userId), eq(oidcIdentities.issuer, issuer)))
      .returning({ subject: oidcIdentities.subject });
    return rows.length > 0;
  }
}

/** Housekeeping (src/infrastructure/housekeeping): single sign-on attempts that have expired. */
export const expiredOidcFlowsPurge: PurgeJob = { name: 'expired single sign-on attempts', purge: (db, now) => new OidcRepository(db).purgeExpired(now) };
