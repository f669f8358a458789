import { describe, expect, it } from 'vitest';
import { barChartLayout, niceCeiling } from '../../web/src/lib/chart.js';

const BOX = { width: 340, height: 140, left: 30, right: 10, top: 10, bottom: 30 };
const days = (counts: number[]) => counts.map((count, index) => ({ date: `2030-07-${String(index + 1).padStart(2, '0')}T00:00:00.000Z`, count }));

describe('chart scale', () => {
  it('rounds the top of the scale up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 2, 3, 7, 10, 11, 23, 51, 100, 101, 999].map(niceCeiling)).toEqual([1, 1, 2, 5, 10, 10, 20, 50, 100, 100, 200, 1000]);
  });
});

describe('bar chart layout', () => {
  it('gives each day an equal slot and bars proportional to the count', () => {
    const layout = barChartLayout(days([0, 5, 10]), BOX);
    expect(layout.max).toBe(10);
    // Plot: 300 wide, 100 high; 100 per slot, gap 4.
    expect(layout.bars.map((bar) => [bar.x, bar.width, bar.height, bar.y])).toEqual([
      [32, 96, 0, 110],
      [132, 96, 50, 60],
      [232, 96, 100, 10],
    ]);
  });

  it('puts grid lines on whole numbers only', () => {
    expect(barChartLayout(days([0, 1]), BOX).ticks.map((tick) => tick.value)).toEqual([0, 1]);
    expect(barChartLayout(days([2]), BOX).ticks.map((tick) => tick.value)).toEqual([0, 1, 2]);
    // A scale of 10 in quarters: 2.5 and 7.5 are left out.
    expect(barChartLayout(days([7]), BOX).ticks.map((tick) => tick.value)).toEqual([0, 5, 10]);
    expect(barChartLayout(days([100]), BOX).ticks.map((tick) => [tick.value, tick.y])).toEqual([
      [0, 110],
      [25, 85],
      [50, 60],
      [75, 35],
      [100, 10],
    ]);
  });

  it('labels at most the asked number of days, evenly', () => {
    const month = barChartLayout(days(Array.from({ length: 30 }, () => 1)), BOX, 8);
    expect(month.labelled).toEqual([0, 4, 8, 12, 16, 20, 24, 28]);
    expect(barChartLayout(days([1, 2, 3]), BOX, 8).labelled).toEqual([0, 1, 2]);
  });

  it('draws an empty series as an empty chart with a scale of 1', () => {
    const layout = barChartLayout([], BOX);
    expect(layout.bars).toEqual([]);
    expect(layout.max).toBe(1);
  });
});
