import type { Database } from '../../db/client.js';
import type { Clock } from '../../shared/clock.js';
import { notFound } from '../../shared/errors.js';
import { reencodeImage, type DecodeQueue } from '../../infrastructure/images/images.js';
import { UsersRepository } from '../users/users.repository.js';
import { isAdmin, type Caller } from '../../identity/caller.js';
import { requireSelfOrAdmin } from '../../identity/policy.js';
import { toUserDto } from '../users/users.mappers.js';
import type { UserDto } from '../users/users.schemas.js';
import { AvatarsRepository } from './avatars.repository.js';

/** Avatars are square, AVATAR_SIDE pixels. */
export const AVATAR_SIDE = 512;

export class AvatarsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly maxPixels: number,
    private readonly decodes: DecodeQueue,
  ) {}

  async get(userId: string) {
    const avatar = await new AvatarsRepository(this.db).find(userId);
    if (!avatar) throw notFound('Avatar of user', userId);
    return avatar;
  }

  async put(caller: Caller, userId: string, upload: Buffer): Promise<UserDto> {
    this.ensureMayChange(caller, userId);
    if (!(await new UsersRepository(this.db).findById(userId))) throw notFound('User', userId);
    const image = await reencodeImage(upload, this.maxPixels, { square: AVATAR_SIDE }, this.decodes);
    const user = await new AvatarsRepository(this.db).save(userId, image, this.clock.now());
    if (!user) throw notFound('User', userId);
    return toUserDto(user, isAdmin(caller));
  }

  async remove(caller: Caller, userId: string): Promise<void> {
    this.ensureMayChange(caller, userId);
    if (!(await new AvatarsRepository(this.db).remove(userId, this.clock.now()))) throw notFound('Avatar of user', userId);
  }

  private ensureMayChange(caller: Caller, userId: string): void {
    requireSelfOrAdmin(caller, userId, 'You may change only your own avatar');
  }
}
