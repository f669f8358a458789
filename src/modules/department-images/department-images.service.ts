import type { Database } from '../../db/client.js';
import type { Clock } from '../../shared/clock.js';
import { notFound } from '../../shared/errors.js';
import { reencodeImage, type DecodeQueue } from '../../infrastructure/images/images.js';
import { toDepartmentSummaryDto } from '../inventory/inventory.mappers.js';
import type { DepartmentDto } from '../inventory/inventory.schemas.js';
import { DepartmentImagesRepository } from './department-images.repository.js';

/** Department images are shrunk to fit inside DEPARTMENT_IMAGE_MAX_SIDE × DEPARTMENT_IMAGE_MAX_SIDE (never enlarged, aspect kept). */
export const DEPARTMENT_IMAGE_MAX_SIDE = 1600;

export class DepartmentImagesService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly maxPixels: number,
    private readonly decodes: DecodeQueue,
  ) {}

  async get(departmentId: string) {
    const found = await new DepartmentImagesRepository(this.db).find(departmentId);
    if (!found) throw notFound('Department', departmentId);
    if (!found.image) throw notFound('Image of department', departmentId);
    return found.image;
  }

  async put(departmentId: string, upload: Buffer): Promise<DepartmentDto> {
    const repository = new DepartmentImagesRepository(this.db);
    // An unknown department is refused before the (costly) decoding.
    if (!(await repository.departmentExists(departmentId))) throw notFound('Department', departmentId);
    // Floor plans are often drawn as SVG: accepted, and kept as the PNG drawn from it (docs/behaviour.md#images).
    const image = await reencodeImage(upload, this.maxPixels, { maxSide: DEPARTMENT_IMAGE_MAX_SIDE, svg: true }, this.decodes);
    const department = await repository.save(departmentId, image, this.clock.now());
    if (!department) throw notFound('Department', departmentId);
    return toDepartmentSummaryDto(department);
  }

  async remove(departmentId: string): Promise<void> {
    const repository = new DepartmentImagesRepository(this.db);
    if (await repository.remove(departmentId, this.clock.now())) return;
    if (!(await repository.departmentExists(departmentId))) throw notFound('Department', departmentId);
    throw notFound('Image of department', departmentId);
  }
}
