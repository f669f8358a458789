import { describe, expect, it } from 'vitest';
import {
  fitDeskLabels,
  fitSize,
  LINE_HEIGHT_EM,
  MIN_LABEL_PX,
  MIN_TARGET_PX,
  minScaleForTargets,
  shortNames,
  textWidthEm,
  uprightRotation,
} from '../../web/src/features/floor-plans/fit.js';

/** Desk labels and tap targets of the map (docs/behaviour.md#desk-labels-and-tap-targets-on-the-map). */

const desk = (id: string, name: string, group = 'room', mark = '', width = 120, height = 80) => ({ id, group, name, mark, width, height });

describe('desk labels on the map', () => {
  it('shortens a name: without the word "Desk", then its last part', () => {
    expect(shortNames('Desk 1.02-01')).toEqual(['1.02-01', '01']);
    expect(shortNames('desk A1')).toEqual(['A1']);
    expect(shortNames('Window seat')).toEqual(['Window seat', 'seat']);
    expect(shortNames('A1')).toEqual(['A1']);
  });

  it('fits the text inside the box, following its width as well as its height', () => {
    // Inside a margin of a tenth of the shorter side (8 units here).
    const size = fitSize('1.02-01', 120, 80);
    expect(size * textWidthEm('1.02-01')).toBeLessThanOrEqual(120 - 2 * 8 + 1e-9);
    expect(size * LINE_HEIGHT_EM).toBeLessThanOrEqual(80 - 2 * 8 + 1e-9);
    // A wider box of the same height takes a larger label; a taller one of the same width does not.
    expect(fitSize('1.02-01', 240, 80)).toBeGreaterThan(size);
    expect(fitSize('1.02-01', 120, 400)).toBeLessThanOrEqual(size);
  });

  it('gives a room one form and one size, shortens it when the long form is unreadable, and leaves out what cannot be read', () => {
    const room = [desk('a', 'Desk 1.02-01'), desk('b', 'Desk 1.02-02', 'room', '×')];
    const large = fitDeskLabels(room, 1);
    expect(large.get('a')).toEqual({ text: '1.02-01', fontSize: large.get('b')!.fontSize });
    expect(large.get('b')!.text).toBe('× 1.02-02');
    // Drawn smaller: the long form would be under MIN_LABEL_PX, the last part is not.
    const pixels = MIN_LABEL_PX / fitSize('× 1.02-02', 120, 80) - 0.05;
    const small = fitDeskLabels(room, pixels);
    expect([small.get('a')!.text, small.get('b')!.text]).toEqual(['01', '× 02']);
    expect(small.get('a')!.fontSize * pixels).toBeGreaterThanOrEqual(MIN_LABEL_PX);
    // Far too small: no label at all.
    expect(fitDeskLabels(room, 0.01).get('a')).toBeUndefined();
    // Rooms are sized apart.
    const two = fitDeskLabels([desk('a', 'A1'), desk('c', 'C1', 'other', '', 300, 200)], 1);
    expect(two.get('c')!.fontSize).toBeGreaterThan(two.get('a')!.fontSize);
  });

  it('turns text within ±90°: a desk turned past 90° gets its label turned back by 180°', () => {
    expect(uprightRotation(0)).toBe(0);
    expect(uprightRotation(15)).toBe(15);
    expect(uprightRotation(90)).toBe(90);
    expect(uprightRotation(180)).toBe(0);
    expect(uprightRotation(200)).toBe(20);
    expect(uprightRotation(270)).toBe(-90);
    expect(uprightRotation(345)).toBe(-15);
    for (let turn = 0; turn < 360; turn += 5) expect(Math.abs(uprightRotation(turn))).toBeLessThanOrEqual(90);
  });

  it('zooms in so that the smallest desk is a 24 px target, never out past 1, at most the map’s largest zoom', () => {
    // A 40-unit desk drawn at a quarter pixel a unit is 10 px: zoom 2.4 (and a hundredth) makes it 24.
    expect(minScaleForTargets(40, 0.25, 8) * 40 * 0.25).toBeGreaterThanOrEqual(MIN_TARGET_PX);
    expect(minScaleForTargets(40, 0.25, 8)).toBeCloseTo(2.424, 2);
    expect(minScaleForTargets(100, 1, 8)).toBe(1);
    expect(minScaleForTargets(1, 0.1, 8)).toBe(8);
    expect(minScaleForTargets(40, 0, 8)).toBe(1);
  });
});
