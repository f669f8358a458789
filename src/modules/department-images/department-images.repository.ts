import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { departmentImages, departments } from '../../db/schema.js';
import type { StoredImage } from '../../infrastructure/images/images.js';

type DepartmentRow = typeof departments.$inferSelect;
type ServedImage = Pick<StoredImage, 'data' | 'etag'> & { contentType: string };

export class DepartmentImagesRepository {
  constructor(private readonly db: Database) {}

  async departmentExists(departmentId: string): Promise<boolean> {
    const [row] = await this.db.select({ id: departments.id }).from(departments).where(eq(departments.id, departmentId)).limit(1);
    return row !== undefined;
  }

  /** undefined: no such department; image null: the department has none. One query tells both apart. */
  async find(departmentId: string): Promise<{ image: ServedImage | null } | undefined> {
    const [row] = await this.db
      .select({ contentType: departmentImages.contentType, data: departmentImages.data, etag: departmentImages.etag })
      .from(departments)
      .leftJoin(departmentImages, eq(departmentImages.departmentId, departments.id))
      .where(eq(departments.id, departmentId))
      .limit(1);
    if (!row) return undefined;
    const { contentType, data, etag } = row;
    return { image: contentType !== null && data !== null && etag !== null ? { contentType, data, etag } : null };
  }

  /**
   * Stores (or replaces) the image and bumps the department's modified_at together; undefined
   * when the department does not exist. The update locks the department row first, so a
   * concurrent delete of the department cannot leave the insert without its parent.
   */
  async save(departmentId: string, image: StoredImage, now: Date): Promise<DepartmentRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [department] = await tx.update(departments).set({ modifiedAt: now }).where(eq(departments.id, departmentId)).returning();
      if (!department) return undefined;
      const values = { contentType: image.contentType, data: image.data, etag: image.etag, updatedAt: now };
      await tx
        .insert(departmentImages)
        .values({ departmentId, ...values })
        .onConflictDoUpdate({ target: departmentImages.departmentId, set: values });
      return department;
    });
  }

  /** Removes the image and bumps the department's modified_at; false when there was none. */
  async remove(departmentId: string, now: Date): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const deleted = await tx
        .delete(departmentImages)
        .where(eq(departmentImages.departmentId, departmentId))
        .returning({ departmentId: departmentImages.departmentId });
      if (deleted.length === 0) return false;
      await tx.update(departments).set({ modifiedAt: now }).where(eq(departments.id, departmentId));
      return true;
    });
  }
}
