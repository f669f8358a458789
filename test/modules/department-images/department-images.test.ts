import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import sharp, { type Metadata } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/client.js';
import { departmentImages, departments } from '../../../src/db/schema.js';
import { createTestApp, expectProblem, type TestApp } from '../../helpers/app.js';
import { insertDepartment } from '../../helpers/fixtures.js';
import {
  expectColourNear,
  FORMATS,
  meanColour,
  MIME,
  MODES,
  multipartBody,
  noisyPng,
  SCRIPT,
  solidImage,
  SVG,
  withPngChunk,
  type Format,
  type Mode,
  type Rgb,
} from '../../helpers/images.js';

/**
 * GET|PUT|DELETE /api/departments/{departmentId}/image (docs/api.md#roles, docs/behaviour.md#images: "Images and
 * avatars"): the avatar upload rules, with images fitted inside 1600×1600 instead of cropped, and
 * changes reserved to admins.
 */

const MAX_SIDE = 1600;
const PASSWORD = 'department-image-password-1';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const DEPARTMENT_KEYS = ['building', 'floor', 'id', 'location'];

interface DepartmentBody {
  id: string;
  location: string;
  building: string;
  floor: number;
}

const imageUrl = (departmentId: string) => `/api/departments/${departmentId}/image`;

/** PUT of an image: raw body with `declared` as its Content-Type, or a multipart `file` part declared so. */
function putImage(
  t: TestApp,
  departmentId: string,
  token: string | undefined,
  bytes: Buffer,
  options: { mode?: Mode; declared?: string } = {},
): Promise<LightMyRequestResponse> {
  const { mode = 'raw', declared = 'image/png' } = options;
  if (mode === 'raw') return t.request({ method: 'PUT', url: imageUrl(departmentId), token, payload: bytes, headers: { 'content-type': declared } });
  const form = multipartBody([{ name: 'file', filename: 'floor-plan.img', contentType: declared, data: bytes }]);
  return t.request({ method: 'PUT', url: imageUrl(departmentId), token, payload: form.payload, headers: { 'content-type': form.contentType } });
}

const getImage = (t: TestApp, departmentId: string, token: string | undefined, headers: Record<string, string> = {}) =>
  t.request({ method: 'GET', url: imageUrl(departmentId), token, headers });
const deleteImage = (t: TestApp, departmentId: string, token: string | undefined) => t.request({ method: 'DELETE', url: imageUrl(departmentId), token });

/** The stored rows of a department's image, read straight from the database. */
const storedImages = (db: Database, departmentId: string) => db.select().from(departmentImages).where(eq(departmentImages.departmentId, departmentId));

async function modifiedAt(db: Database, departmentId: string): Promise<string> {
  const [row] = await db.select({ modifiedAt: departments.modifiedAt }).from(departments).where(eq(departments.id, departmentId));
  return row!.modifiedAt.toISOString();
}

/** Asserts a served image: type, headers, format and exact size. */
async function expectServedImage(response: LightMyRequestResponse, format: Format, width: number, height: number): Promise<Metadata> {
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe(MIME[format]);
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(String(response.headers.etag)).toMatch(/^"[^"]+"$/);
  expect(String(response.headers['cache-control'])).toMatch(/no-cache/);
  const metadata = await sharp(response.rawPayload).metadata();
  expect(metadata.format).toBe(format);
  expect({ width: metadata.width, height: metadata.height }).toEqual({ width, height });
  return metadata;
}

/** A signed-in USER (not an admin). */
async function userToken(t: TestApp): Promise<string> {
  const email = `dept-image.${randomBytes(4).toString('hex')}@example.test`;
  await t.createUser({ email, password: PASSWORD });
  return (await t.login(email, PASSWORD)).accessToken;
}

describe('department image upload and download', () => {
  let t: TestApp;
  let db: Database;
  let admin: string;
  let user: string;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.database.handle.db;
    admin = await t.adminToken();
    user = await userToken(t);
  });
  afterAll(() => t.close());

  for (const format of FORMATS) {
    for (const mode of MODES) {
      it(`stores a ${format.toUpperCase()} sent as a ${mode} body, shrunk to fit ${MAX_SIDE}×${MAX_SIDE}, and serves it as ${MIME[format]}`, async () => {
        const department = await insertDepartment(db, { location: `Image ${format} ${mode}`, building: 'B7', floor: 3 });
        const colour: Rgb = [30, 120, 200];
        t.clock.advance(60_000);

        const put = await putImage(t, department.id, admin, await solidImage(format, 2400, 1200, colour), { mode, declared: MIME[format] });
        expect(put.statusCode).toBe(200);
        expect(put.headers['content-type']).toMatch(/^application\/json/);
        const body = put.json<DepartmentBody>();
        expect(Object.keys(body).sort()).toEqual(DEPARTMENT_KEYS);
        expect(body).toEqual({ id: department.id, location: `Image ${format} ${mode}`, building: 'B7', floor: 3 });
        expect(await modifiedAt(db, department.id)).toBe(t.clock.now().toISOString());

        const [stored] = await storedImages(db, department.id);
        expect(stored).toMatchObject({ contentType: MIME[format], updatedAt: t.clock.now() });

        // Any signed-in user may read it.
        const got = await getImage(t, department.id, user);
        await expectServedImage(got, format, 1600, 800);
        expectColourNear(await meanColour(got.rawPayload), colour);
        expect(got.rawPayload.equals(stored!.data)).toBe(true);

        const etag = String(got.headers.etag);
        const notModified = await getImage(t, department.id, user, { 'if-none-match': etag });
        expect(notModified.statusCode).toBe(304);
        expect(notModified.rawPayload.length).toBe(0);
        expect(notModified.headers.etag).toBe(etag);
        const byAdmin = await getImage(t, department.id, admin, { 'if-none-match': '"another-etag"' });
        await expectServedImage(byAdmin, format, 1600, 800);
        expect(byAdmin.headers.etag).toBe(etag);
      });
    }
  }

  it('fits any shape inside 1600×1600 keeping its aspect, and never enlarges a smaller image', async () => {
    const department = await insertDepartment(db);
    for (const [width, height, expectedWidth, expectedHeight] of [
      [4000, 1000, 1600, 400],
      [900, 2700, 533, 1600],
      [3200, 3200, 1600, 1600],
      [1600, 1600, 1600, 1600],
      [1601, 10, 1600, 10],
      [300, 200, 300, 200],
      [40, 1200, 40, 1200],
      [1, 1, 1, 1],
    ] as const) {
      expect((await putImage(t, department.id, admin, await solidImage('png', width, height))).statusCode).toBe(200);
      await expectServedImage(await getImage(t, department.id, user), 'png', expectedWidth, expectedHeight);
    }
    expect(await storedImages(db, department.id)).toHaveLength(1);
  });

  for (const format of FORMATS) {
    it(`keeps a small ${format.toUpperCase()} at its own size, raw and multipart`, async () => {
      const department = await insertDepartment(db);
      for (const mode of MODES) {
        expect((await putImage(t, department.id, admin, await solidImage(format, 640, 480), { mode, declared: MIME[format] })).statusCode).toBe(200);
        await expectServedImage(await getImage(t, department.id, user), format, 640, 480);
      }
    });
  }

  it('answers 304 to a weak, listed or * ETag and 200 to a different one', async () => {
    const department = await insertDepartment(db);
    expect((await putImage(t, department.id, admin, await solidImage('webp'), { declared: 'image/webp' })).statusCode).toBe(200);
    const etag = String((await getImage(t, department.id, user)).headers.etag);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"something-else", ${etag}`, '*']) {
      const response = await getImage(t, department.id, user, { 'if-none-match': ifNoneMatch });
      expect(response.statusCode).toBe(304);
      expect(response.rawPayload.length).toBe(0);
    }
    await expectServedImage(await getImage(t, department.id, user, { 'if-none-match': '"not-the-etag"' }), 'webp', 800, 600);
  });

  it('replaces the image: a new ETag, the old ETag gets the new image, one row stored', async () => {
    const department = await insertDepartment(db);
    const red: Rgb = [220, 20, 20];
    const blue: Rgb = [20, 20, 220];
    expect((await putImage(t, department.id, admin, await solidImage('png', 600, 600, red))).statusCode).toBe(200);
    const first = await getImage(t, department.id, user);
    expectColourNear(await meanColour(first.rawPayload), red);
    const firstEtag = String(first.headers.etag);

    expect((await putImage(t, department.id, admin, await solidImage('jpeg', 700, 500, blue), { mode: 'multipart', declared: 'image/jpeg' })).statusCode).toBe(
      200,
    );
    const second = await getImage(t, department.id, user, { 'if-none-match': firstEtag });
    await expectServedImage(second, 'jpeg', 700, 500);
    expect(String(second.headers.etag)).not.toBe(firstEtag);
    expectColourNear(await meanColour(second.rawPayload), blue);
    expect(await storedImages(db, department.id)).toHaveLength(1);
  });

  it('DELETE answers 204 with no body and bumps modified_at; GET and DELETE then answer 404; it can be set again', async () => {
    const department = await insertDepartment(db);
    expect((await putImage(t, department.id, admin, await solidImage('png'))).statusCode).toBe(200);
    const etag = String((await getImage(t, department.id, user)).headers.etag);
    t.clock.advance(60_000);

    const deleted = await deleteImage(t, department.id, admin);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.rawPayload.length).toBe(0);
    expect(await storedImages(db, department.id)).toEqual([]);
    expect(await modifiedAt(db, department.id)).toBe(t.clock.now().toISOString());

    expectProblem(await getImage(t, department.id, user), 404, 'NOT_FOUND');
    // A cached ETag does not bring a deleted image back as 304.
    expectProblem(await getImage(t, department.id, user, { 'if-none-match': etag }), 404, 'NOT_FOUND');
    expectProblem(await deleteImage(t, department.id, admin), 404, 'NOT_FOUND');

    expect((await putImage(t, department.id, admin, await solidImage('png'))).statusCode).toBe(200);
    await expectServedImage(await getImage(t, department.id, user), 'png', 800, 600);
  });

  it('answers 404 for an unknown department and for one without an image, with different details', async () => {
    const department = await insertDepartment(db);
    const unknown = expectProblem(await getImage(t, UNKNOWN_ID, user), 404, 'NOT_FOUND');
    const noImage = expectProblem(await getImage(t, department.id, user), 404, 'NOT_FOUND');
    expect(unknown.detail).toBe(`Department ${UNKNOWN_ID} not found`);
    expect(noImage.detail).toBe(`Image of department ${department.id} not found`);
    expect(expectProblem(await deleteImage(t, UNKNOWN_ID, admin), 404, 'NOT_FOUND').detail).toBe(unknown.detail);
    expect(expectProblem(await deleteImage(t, department.id, admin), 404, 'NOT_FOUND').detail).toBe(noImage.detail);
  });

  it('answers 404 to a PUT for an unknown department before looking at the image (a bomb or an SVG is not decoded)', async () => {
    const bomb = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#fff' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    for (const mode of MODES) {
      expectProblem(await putImage(t, UNKNOWN_ID, admin, await solidImage('png'), { mode }), 404, 'NOT_FOUND');
      expectProblem(await putImage(t, UNKNOWN_ID, admin, bomb, { mode }), 404, 'NOT_FOUND');
      expectProblem(await putImage(t, UNKNOWN_ID, admin, Buffer.from(SVG), { mode }), 404, 'NOT_FOUND');
    }
    expect(await storedImages(db, UNKNOWN_ID)).toEqual([]);
  });

  it('answers 400 for a malformed department id', async () => {
    const png = await solidImage('png', 32, 32);
    for (const id of ['not-a-uuid', '123', `${UNKNOWN_ID}x`, "1' or '1'='1"]) {
      const url = imageUrl(encodeURIComponent(id));
      expectProblem(await t.request({ method: 'GET', url, token: user }), 400, 'VALIDATION_FAILED');
      expectProblem(await t.request({ method: 'PUT', url, token: admin, payload: png, headers: { 'content-type': 'image/png' } }), 400, 'VALIDATION_FAILED');
      expectProblem(await t.request({ method: 'DELETE', url, token: admin }), 400, 'VALIDATION_FAILED');
    }
  });

  it('removes the image with its department', async () => {
    const department = await insertDepartment(db);
    expect((await putImage(t, department.id, admin, await solidImage('png'))).statusCode).toBe(200);
    expect(await storedImages(db, department.id)).toHaveLength(1);

    await db.delete(departments).where(eq(departments.id, department.id));
    expect(await storedImages(db, department.id)).toEqual([]);
    const gone = expectProblem(await getImage(t, department.id, user), 404, 'NOT_FOUND');
    expect(gone.detail).toBe(`Department ${department.id} not found`);
  });
});

describe('department image content: the type comes from the bytes, and everything is re-encoded', () => {
  let t: TestApp;
  let db: Database;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.database.handle.db;
    admin = await t.adminToken();
  });
  afterAll(() => t.close());

  /** Asserts the refusal and that nothing was stored. */
  async function expectRefused(departmentId: string, response: LightMyRequestResponse, status: number, code: string): Promise<void> {
    expectProblem(response, status, code);
    expect(await storedImages(db, departmentId)).toEqual([]);
  }

  it('accepts PNG bytes declared as image/webp (raw and multipart) and stores and serves them as image/png', async () => {
    for (const mode of MODES) {
      const department = await insertDepartment(db);
      expect((await putImage(t, department.id, admin, await solidImage('png'), { mode, declared: 'image/webp' })).statusCode).toBe(200);
      expect((await storedImages(db, department.id))[0]!.contentType).toBe('image/png');
      await expectServedImage(await getImage(t, department.id, admin), 'png', 800, 600);
    }
  });

  // Floor plans are often drawn as SVG: accepted and kept as the PNG drawn from them (docs/behaviour.md#images).
  it('accepts SVG, declared as SVG or as PNG, raw or multipart: drawn to a 1600 px PNG, nothing of the document kept', async () => {
    for (const [mode, declared] of [
      ['raw', 'image/svg+xml'],
      ['raw', 'image/png'],
      ['multipart', 'image/svg+xml'],
      ['multipart', 'image/png'],
    ] as const) {
      const department = await insertDepartment(db);
      const response = await putImage(t, department.id, admin, Buffer.from(SVG), { mode, declared });
      expect(response.statusCode, response.body).toBe(200);
      expect((await storedImages(db, department.id))[0]!.contentType).toBe('image/png');
      // Declared 64×64: a drawing loses nothing by being drawn at the plan's size.
      const served = await getImage(t, department.id, admin);
      await expectServedImage(served, 'png', MAX_SIDE, MAX_SIDE);
      expect(served.rawPayload.includes(Buffer.from('<script'))).toBe(false);
      expectColourNear(await meanColour(served.rawPayload), [255, 0, 0]);
    }
  });

  it('draws an SVG that declares a huge size within the limits, and keeps its aspect', async () => {
    const department = await insertDepartment(db);
    const huge = '<svg xmlns="http://www.w3.org/2000/svg" width="200000" height="100000"><rect width="200000" height="100000" fill="#0000ff"/></svg>';
    expect((await putImage(t, department.id, admin, Buffer.from(huge), { declared: 'image/svg+xml' })).statusCode).toBe(200);
    await expectServedImage(await getImage(t, department.id, admin), 'png', MAX_SIDE, MAX_SIDE / 2);
  });

  it('reads no file an SVG points at, and refuses SVG that declares XML entities', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'deskbook-svg-'));
    try {
      const secret = path.join(dir, 'secret.png');
      await writeFile(secret, await solidImage('png', 64, 64, [0, 200, 0]));
      const department = await insertDepartment(db);
      const pointing = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64"><rect width="64" height="64" fill="#ffffff"/><image href="file://${secret}" xlink:href="file://${secret}" width="64" height="64"/><image href="${secret}" width="64" height="64"/></svg>`;
      expect((await putImage(t, department.id, admin, Buffer.from(pointing), { declared: 'image/svg+xml' })).statusCode).toBe(200);
      // White: the green file was not drawn.
      expectColourNear(await meanColour((await getImage(t, department.id, admin)).rawPayload), [255, 255, 255]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const other = await insertDepartment(db);
    const bomb = `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><text>&b;</text></svg>`;
    const refused = await putImage(t, other.id, admin, Buffer.from(bomb), { declared: 'image/svg+xml' });
    expect(expectProblem(refused, 400, 'VALIDATION_FAILED').errors).toEqual([{ field: 'file', message: 'declares XML entities' }]);
    expect(await storedImages(db, other.id)).toEqual([]);
    // Text that is no SVG stays 415.
    await expectRefused(
      other.id,
      await putImage(t, other.id, admin, Buffer.from('<html><svg></svg></html>'), { declared: 'image/svg+xml' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });

  it('refuses a JSON or text body with 415', async () => {
    const department = await insertDepartment(db);
    const png = await solidImage('png', 32, 32);
    await expectRefused(
      department.id,
      await t.request({ method: 'PUT', url: imageUrl(department.id), token: admin, payload: { file: png.toString('base64') } }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    await expectRefused(department.id, await putImage(t, department.id, admin, png, { declared: 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('stores a PNG+script polyglot re-encoded: the script never comes back', async () => {
    const department = await insertDepartment(db);
    const polyglot = Buffer.concat([await solidImage('png', 300, 300), Buffer.from(SCRIPT)]);
    expect(polyglot.includes(SCRIPT)).toBe(true);
    for (const mode of MODES) {
      expect((await putImage(t, department.id, admin, polyglot, { mode })).statusCode).toBe(200);
      const got = await getImage(t, department.id, admin);
      await expectServedImage(got, 'png', 300, 300);
      expect(got.rawPayload.includes('<script')).toBe(false);
      expect(got.rawPayload.includes('alert(1)')).toBe(false);
    }
  });

  it('strips a script in a PNG tEXt chunk', async () => {
    const department = await insertDepartment(db);
    const withText = withPngChunk(await solidImage('png', 300, 300), 'tEXt', Buffer.from(`Comment\0${SCRIPT}`, 'latin1'));
    expect((await sharp(withText).metadata()).comments).toEqual([{ keyword: 'Comment', text: SCRIPT }]);

    expect((await putImage(t, department.id, admin, withText)).statusCode).toBe(200);
    const got = await getImage(t, department.id, admin);
    expect((await expectServedImage(got, 'png', 300, 300)).comments ?? []).toEqual([]);
    expect(got.rawPayload.includes('<script')).toBe(false);
  });

  for (const format of FORMATS) {
    it(`strips EXIF metadata (with a script and a location in it) from a ${format.toUpperCase()}`, async () => {
      const department = await insertDepartment(db);
      const upload = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3a7' } })
        .withExif({ IFD0: { ImageDescription: SCRIPT, Artist: 'Secret Artist' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 8/1 0/1' } })
        .toFormat(format)
        .toBuffer();
      expect((await sharp(upload).metadata()).exif).toBeDefined();
      expect(upload.includes(SCRIPT)).toBe(true);

      for (const mode of MODES) {
        expect((await putImage(t, department.id, admin, upload, { mode, declared: MIME[format] })).statusCode).toBe(200);
        const got = await getImage(t, department.id, admin);
        expect((await expectServedImage(got, format, 400, 300)).exif).toBeUndefined();
        expect(got.rawPayload.includes('<script')).toBe(false);
        expect(got.rawPayload.includes('Secret Artist')).toBe(false);
      }
    });
  }

  it('refuses a decompression bomb (10,000×10,000 PNG, a small file) with 413, and keeps an existing image unchanged', async () => {
    const bomb = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#fff' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(t.config.IMAGE_MAX_BYTES);
    const empty = await insertDepartment(db);
    for (const mode of MODES) {
      await expectRefused(empty.id, await putImage(t, empty.id, admin, bomb, { mode }), 413, 'PAYLOAD_TOO_LARGE');
    }
    await expectRefused(empty.id, await putImage(t, empty.id, admin, bomb, { declared: 'image/webp' }), 413, 'PAYLOAD_TOO_LARGE');

    const withImage = await insertDepartment(db);
    expect((await putImage(t, withImage.id, admin, await solidImage('png'))).statusCode).toBe(200);
    const before = await getImage(t, withImage.id, admin);
    expectProblem(await putImage(t, withImage.id, admin, bomb), 413, 'PAYLOAD_TOO_LARGE');
    const after = await getImage(t, withImage.id, admin);
    expect(after.headers.etag).toBe(before.headers.etag);
    expect(after.rawPayload.equals(before.rawPayload)).toBe(true);
  });

  it('answers 400 (not 500) to a truncated PNG, raw and multipart, and stores nothing', async () => {
    const department = await insertDepartment(db);
    const png = await noisyPng(200, 200);
    for (const mode of MODES) {
      await expectRefused(
        department.id,
        await putImage(t, department.id, admin, png.subarray(0, Math.floor(png.length / 2)), { mode }),
        400,
        'VALIDATION_FAILED',
      );
    }
  });
});

describe('department image permissions (docs/api.md#roles)', () => {
  let t: TestApp;
  let db: Database;
  let admin: string;
  let user: string;
  let png: Buffer;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.database.handle.db;
    admin = await t.adminToken();
    user = await userToken(t);
    png = await solidImage('png', 128, 96);
  });
  afterAll(() => t.close());

  it('refuses a USER setting or removing an image (403) and changes nothing; the admin may', async () => {
    const department = await insertDepartment(db);
    for (const mode of MODES) {
      expectProblem(await putImage(t, department.id, user, png, { mode }), 403, 'FORBIDDEN');
    }
    expect(await storedImages(db, department.id)).toEqual([]);
    const modifiedBefore = await modifiedAt(db, department.id);

    expect((await putImage(t, department.id, admin, png)).statusCode).toBe(200);
    const etag = (await getImage(t, department.id, admin)).headers.etag;
    t.clock.advance(60_000);
    expectProblem(await putImage(t, department.id, user, await solidImage('jpeg', 64, 64), { declared: 'image/jpeg' }), 403, 'FORBIDDEN');
    expectProblem(await deleteImage(t, department.id, user), 403, 'FORBIDDEN');
    expect(await storedImages(db, department.id)).toHaveLength(1);
    expect((await getImage(t, department.id, admin)).headers.etag).toBe(etag);
    expect(await modifiedAt(db, department.id)).not.toBe(modifiedBefore);
    expect(await modifiedAt(db, department.id)).not.toBe(t.clock.now().toISOString());

    expect((await deleteImage(t, department.id, admin)).statusCode).toBe(204);
    expect(await storedImages(db, department.id)).toEqual([]);
  });

  it('lets a USER read an image', async () => {
    const department = await insertDepartment(db);
    expect((await putImage(t, department.id, admin, png)).statusCode).toBe(200);
    await expectServedImage(await getImage(t, department.id, user), 'png', 128, 96);
  });

  it('answers 401 without a valid token, to every method, and changes nothing', async () => {
    const department = await insertDepartment(db);
    const bare = await insertDepartment(db);
    expect((await putImage(t, department.id, admin, png)).statusCode).toBe(200);
    for (const response of [
      await getImage(t, department.id, undefined),
      await getImage(t, department.id, undefined, { authorization: 'Bearer not-a-token' }),
      await putImage(t, bare.id, undefined, png),
      await putImage(t, bare.id, undefined, png, { mode: 'multipart' }),
      await deleteImage(t, department.id, undefined),
    ]) {
      expectProblem(response, 401);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    }
    expect(await storedImages(db, department.id)).toHaveLength(1);
    expect(await storedImages(db, bare.id)).toEqual([]);
  });
});

describe('department image upload limits (IMAGE_MAX_BYTES, IMAGE_MAX_PIXELS)', () => {
  let t: TestApp;
  let db: Database;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { IMAGE_MAX_BYTES: '20000', IMAGE_MAX_PIXELS: '250000' } });
    db = t.database.handle.db;
    admin = await t.adminToken();
  });
  afterAll(() => t.close());

  it('answers 413 to a file above IMAGE_MAX_BYTES, raw and multipart, and stores nothing', async () => {
    const department = await insertDepartment(db);
    const big = await noisyPng(190, 180);
    expect(big.length).toBeGreaterThan(90_000);
    for (const mode of MODES) {
      expectProblem(await putImage(t, department.id, admin, big, { mode }), 413, 'PAYLOAD_TOO_LARGE');
    }
    expect(await storedImages(db, department.id)).toEqual([]);
  });

  it('answers 413 to an image over IMAGE_MAX_PIXELS even when the file is small, and accepts one within both limits', async () => {
    const department = await insertDepartment(db);
    for (const mode of MODES) {
      expectProblem(await putImage(t, department.id, admin, await solidImage('png', 501, 500), { mode }), 413, 'PAYLOAD_TOO_LARGE');
    }
    expect(await storedImages(db, department.id)).toEqual([]);
    const small = await solidImage('png', 500, 500);
    expect(small.length).toBeLessThan(20_000);
    expect((await putImage(t, department.id, admin, small)).statusCode).toBe(200);
    await expectServedImage(await getImage(t, department.id, admin), 'png', 500, 500);
  });
});
