import { beforeAll, describe, expect, it } from 'vitest';
import { startTestI18n } from '../helpers/i18n.js';
import { readSettings } from '../../web/src/api/settings.js';
import { formatBytes, imageAccept, imageHint, imageRefusal, imageTypeNames, uploadRefusal } from '../../web/src/lib/images.js';

// The floors' and images' words are the English messages (namespace labels, docs/i18n.md).
beforeAll(() => startTestI18n('en'));

const SETTINGS = {
  imageMaxBytes: 5 * 1024 * 1024,
  imageMaxPixels: 40_000_000,
  imageTypes: ['image/png', 'image/jpeg', 'image/webp'],
  reservationMaxLengthSeconds: 86_400,
  reservationHorizonSeconds: 7_776_000,
};

describe('the published settings', () => {
  it('are read when the answer has their shape', () => {
    expect(readSettings(SETTINGS)).toEqual(SETTINGS);
    expect(readSettings({ ...SETTINGS, extra: true })).toEqual(SETTINGS);
  });

  it('carry whether mail is sent and where QR codes point, when the service says (docs/configuration.md#mail, #public-url)', () => {
    const told = { ...SETTINGS, mailConfigured: false, publicUrl: 'http://localhost:8080', publicUrlIsLocal: true };
    expect(readSettings(told)).toMatchObject({ mailConfigured: false, publicUrl: 'http://localhost:8080', publicUrlIsLocal: true });
    // An older service, or a value of another kind: unknown, and the UI then promises and warns of nothing.
    expect(readSettings({ ...SETTINGS, mailConfigured: 'no', publicUrlIsLocal: 1 })).toMatchObject({ mailConfigured: undefined, publicUrlIsLocal: undefined });
  });

  it('are unknown otherwise, so the UI leaves the checks to the service', () => {
    expect(readSettings(undefined)).toBeUndefined();
    expect(readSettings({ ...SETTINGS, imageMaxBytes: '5MB' })).toBeUndefined();
    expect(readSettings({ ...SETTINGS, imageTypes: [1] })).toBeUndefined();
    expect(readSettings({ ...SETTINGS, reservationHorizonSeconds: -1 })).toBeUndefined();
    expect(readSettings({ code: 'ROUTE_NOT_FOUND', status: 404 })).toBeUndefined();
  });
});

describe('images chosen for upload', () => {
  it('are checked against the published limits', () => {
    expect(imageRefusal({ type: 'image/png', size: 1000 }, SETTINGS)).toBeUndefined();
    expect(imageRefusal({ type: 'image/svg+xml', size: 1000 }, SETTINGS)).toBe('Choose a PNG, JPEG or WebP image.');
    expect(imageRefusal({ type: 'image/jpeg', size: 5 * 1024 * 1024 + 1 }, SETTINGS)).toBe('The image is larger than 5 MB.');
    expect(imageRefusal({ type: 'image/png', size: 3 * 1024 * 1024 }, { ...SETTINGS, imageMaxBytes: 2 * 1024 * 1024 })).toBe('The image is larger than 2 MB.');
  });

  it('go to the service unchecked while the limits are unknown', () => {
    expect(imageRefusal({ type: 'image/svg+xml', size: 50 * 1024 * 1024 }, undefined)).toBeUndefined();
    expect(imageHint(undefined)).toBeUndefined();
    expect(imageAccept(undefined)).toBe('image/*');
  });

  it('are described with the limits', () => {
    expect(imageHint(SETTINGS)).toBe('PNG, JPEG or WebP, up to 5 MB.');
    expect(imageAccept(SETTINGS)).toBe('image/png,image/jpeg,image/webp');
    expect(imageTypeNames(['image/png'])).toBe('PNG');
    expect(imageTypeNames(['image/png', 'image/avif'])).toBe('PNG or AVIF');
    expect(formatBytes(512 * 1024)).toBe('512 KB');
    expect(formatBytes(1.5 * 1024 * 1024)).toBe('1.5 MB');
  });

  it('refused by the service are explained with the limits when known', () => {
    expect(uploadRefusal({ status: 413, code: 'PAYLOAD_TOO_LARGE' }, SETTINGS)).toBe('The image is too large (at most 5 MB and 40 megapixels).');
    expect(uploadRefusal({ status: 413, code: 'PAYLOAD_TOO_LARGE' }, undefined)).toBe('The image is too large.');
    expect(uploadRefusal({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' }, SETTINGS)).toBe('Use a PNG, JPEG or WebP image.');
    expect(uploadRefusal({ status: 409, code: 'NOT_FOUND' }, SETTINGS)).toBeUndefined();
  });
});
