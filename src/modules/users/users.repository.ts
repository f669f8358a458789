import { and, count, eq, getTableColumns, ilike, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { orderByClauses, totalOfPage } from '../../db/paging.js';
import { offsetOf, type PageRequest } from '../../shared/paging.js';
import { containsPattern } from '../../shared/text.js';
import { ADMIN_LOCK_KEY } from '../../identity/roles.js';

export type UserRow = typeof users.$inferSelect;
export type NewUser = Pick<UserRow, 'email' | 'firstName' | 'lastName' | 'role' | 'enabled' | 'ldap'> & {
  passwordHash?: string | null;
  mustChangePassword?: boolean;
};
export type UserPatch = Partial<Pick<UserRow, 'email' | 'firstName' | 'lastName' | 'role' | 'enabled' | 'ldap' | 'passwordHash' | 'mustChangePassword'>>;

/** Sort properties anyone may use; the admin-only fields may be sorted by admins only. */
export const USER_SORTABLE = ['id', 'firstName', 'lastName', 'email'] as const;
export const USER_SORTABLE_BY_ADMIN = [...USER_SORTABLE, 'role', 'enabled', 'ldap'] as const;

const sortColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  role: users.role,
  enabled: users.enabled,
  ldap: users.ldap,
};

export interface UserFilter {
  /** Substring of first name, last name or e-mail, any case. */
  search?: string;
  role?: UserRow['role'];
  enabled?: boolean;
  ldap?: boolean;
}

export class UsersRepository {
  constructor(private readonly db: Database) {}

  async page(filter: UserFilter, request: PageRequest): Promise<{ rows: UserRow[]; total: number }> {
    const conditions: SQL[] = [];
    if (filter.search) {
      const pattern = containsPattern(filter.search);
      conditions.push(or(ilike(users.firstName, pattern), ilike(users.lastName, pattern), ilike(users.email, pattern))!);
    }
    if (filter.role !== undefined) conditions.push(eq(users.role, filter.role));
    if (filter.enabled !== undefined) conditions.push(eq(users.enabled, filter.enabled));
    if (filter.ldap !== undefined) conditions.push(eq(users.ldap, filter.ldap));
    const where = conditions.length > 0 ? and(...conditions) : undefined;
    // One statement: each row carries the total (an uncorrelated subquery); only a page past the end counts apart.
    const counting = this.db.select({ total: count() }).from(users).where(where);
    const rows = await this.db
      .select({ ...getTableColumns(users), total: sql<number>`${counting}::int`.mapWith(Number) })
      .from(users)
      .where(where)
      .orderBy(...orderByClauses(request, sortColumns, [sql`${users.lastName}`, sql`${users.firstName}`], users.id))
      .limit(request.size)
      .offset(offsetOf(request));
    const total = await totalOfPage(rows, request, async () => (await counting)[0]?.total ?? 0);
    return { rows: rows.map(({ total: _total, ...row }) => row), total };
  }

  async findById(id: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id)).limit(1);
    return row;
  }

  async findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await this.db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = lower(${email})`)
      .limit(1);
    return row;
  }

  async insert(values: NewUser, now: Date): Promise<UserRow> {
    const [row] = await this.db
      .insert(users)
      .values({ ...values, createdAt: now, modifiedAt: now })
      .returning();
    return row!;
  }

  /** Inserts unless the e-mail is taken; answers undefined when it was. */
  async insertIfAbsent(values: NewUser, now: Date): Promise<UserRow | undefined> {
    const [row] = await this.db
      .insert(users)
      .values({ ...values, createdAt: now, modifiedAt: now })
      .onConflictDoNothing()
      .returning();
    return row;
  }

  async update(id: string, patch: UserPatch, now: Date): Promise<UserRow | undefined> {
    const [row] = await this.db
      .update(users)
      .set({ ...patch, modifiedAt: now })
      .where(eq(users.id, id))
      .returning();
    return row;
  }

  async delete(id: string): Promise<boolean> {
    const rows = await this.db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
    return rows.length > 0;
  }

  async anyAdminExists(): Promise<boolean> {
    const [row] = await this.db.select({ id: users.id }).from(users).where(eq(users.role, 'ADMIN')).limit(1);
    return row !== undefined;
  }

  /** Enabled admins other than `exceptId`. Call inside a transaction after `lockAdmins`. */
  async countOtherEnabledAdmins(exceptId: string): Promise<number> {
    const [row] = await this.db
      .select({ total: count() })
      .from(users)
      .where(and(eq(users.role, 'ADMIN'), eq(users.enabled, true), ne(users.id, exceptId)));
    return row?.total ?? 0;
  }

  /** Transaction-scoped lock: two admins demoting each other at once cannot both succeed. */
  async lockAdmins(): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(${ADMIN_LOCK_KEY.toString()}::bigint)`);
  }
}
