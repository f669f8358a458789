import { describe, expect, it } from 'vitest';
import { layoutPlan } from '../../scripts/seed/floor-plan.js';
import { boundView, fitShape, HOME, keyEdit, MAX_SCALE, NUDGE, normaliseRotation, shapeAt, zoomAbout } from '../../web/src/features/floor-plans/geometry.js';

/** The editor's and the map's geometry (docs/behaviour.md#the-map-and-the-plan-editor-web-app). */

const shape = { x: 0.5, y: 0.5, width: 0.1, height: 0.05, rotation: 0 };

describe('floor-plan geometry', () => {
  it('keeps every shape inside the image, at least a minimum size, with rotation in [0, 360)', () => {
    expect(fitShape({ x: 0.95, y: -0.2, width: 0.1, height: 0.05, rotation: -90 })).toEqual({ x: 0.9, y: 0, width: 0.1, height: 0.05, rotation: 270 });
    expect(fitShape({ ...shape, width: 0, height: 2 })).toMatchObject({ width: 0.01, height: 1, y: 0 });
    expect(normaliseRotation(360)).toBe(0);
    expect(normaliseRotation(-15)).toBe(345);
    expect(normaliseRotation(725)).toBe(5);
    const centred = shapeAt(0.5, 0.5);
    expect(centred.x + centred.width / 2).toBeCloseTo(0.5);
    expect(shapeAt(1, 1).x + shapeAt(1, 1).width).toBeLessThanOrEqual(1);
  });

  it('turns keys into edits: arrows nudge (Shift ten times), brackets rotate, plus and minus resize, Delete removes', () => {
    expect(keyEdit(shape, 'ArrowRight', false)).toEqual({ kind: 'shape', shape: { ...shape, x: 0.5 + NUDGE } });
    expect(keyEdit(shape, 'ArrowUp', true)).toEqual({ kind: 'shape', shape: { ...shape, y: 0.45 } });
    expect(keyEdit(shape, '[', false)).toEqual({ kind: 'shape', shape: { ...shape, rotation: 345 } });
    expect(keyEdit(shape, '+', false)).toMatchObject({ shape: { width: 0.105, height: 0.055 } });
    expect(keyEdit(shape, 'Delete', false)).toEqual({ kind: 'remove' });
    expect(keyEdit(shape, 'a', false)).toBeUndefined();
    // Never past the edge.
    expect(keyEdit({ ...shape, x: 0.9 }, 'ArrowRight', true)).toMatchObject({ shape: { x: 0.9 } });
  });

  it('zooms about a point that stays put, within bounds, and never pans the plan out of sight', () => {
    const zoomed = zoomAbout(HOME, 2, 100, 50);
    expect(zoomed).toEqual({ scale: 2, tx: -100, ty: -50 });
    expect(zoomAbout(zoomed, 100, 0, 0).scale).toBe(MAX_SCALE);
    expect(zoomAbout(HOME, 0.5, 0, 0).scale).toBe(1);
    expect(boundView({ scale: 2, tx: 500, ty: -5000 }, 1000, 700)).toEqual({ scale: 2, tx: 0, ty: -700 });
  });

  it('generated plans place every desk inside the image and inside its room', () => {
    const rooms = Array.from({ length: 20 }, (_, index) => ({ name: `Room ${index}`, desks: 10 }));
    const { boxes, positions } = layoutPlan(rooms);
    expect(positions).toHaveLength(200);
    for (const p of positions) {
      expect(p.x + p.width).toBeLessThanOrEqual(1);
      expect(p.y + p.height).toBeLessThanOrEqual(1);
      const box = boxes[p.room]!;
      expect(p.x * 1600).toBeGreaterThanOrEqual(box.x);
      expect((p.x + p.width) * 1600).toBeLessThanOrEqual(box.x + box.width + 1e-6);
    }
  });
});
