import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { userAvatars, users } from '../../db/schema.js';
import type { StoredImage } from '../../infrastructure/images/images.js';
import type { UserRow } from '../users/users.repository.js';

export class AvatarsRepository {
  constructor(private readonly db: Database) {}

  async find(userId: string): Promise<{ contentType: string; data: Buffer; etag: string } | undefined> {
    const [row] = await this.db
      .select({ contentType: userAvatars.contentType, data: userAvatars.data, etag: userAvatars.etag })
      .from(userAvatars)
      .where(eq(userAvatars.userId, userId))
      .limit(1);
    return row;
  }

  /** Stores the avatar and sets users.has_avatar together; undefined when the user does not exist. */
  async save(userId: string, image: StoredImage, now: Date): Promise<UserRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [user] = await tx.update(users).set({ hasAvatar: true, modifiedAt: now }).where(eq(users.id, userId)).returning();
      if (!user) return undefined;
      const values = { contentType: image.contentType, data: image.data, etag: image.etag, updatedAt: now };
      await tx
        .insert(userAvatars)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: userAvatars.userId, set: values });
      return user;
    });
  }

  /** Removes the avatar; false when there was none. */
  async remove(userId: string, now: Date): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const deleted = await tx.delete(userAvatars).where(eq(userAvatars.userId, userId)).returning({ userId: userAvatars.userId });
      if (deleted.length === 0) return false;
      await tx.update(users).set({ hasAvatar: false, modifiedAt: now }).where(eq(users.id, userId));
      return true;
    });
  }
}
