/** Geometry of the statistics bar charts (drawn as plain SVG by components/BarChart.tsx). */

export interface DailyCount {
  date: string;
  count: number;
}

export interface ChartBox {
  width: number;
  height: number;
  /** Room for the value axis on the left and the date labels below. */
  left: number;
  bottom: number;
  top: number;
  right: number;
}

export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
  date: string;
  count: number;
}

export interface ChartLayout {
  bars: Bar[];
  /** Horizontal grid lines with their values, bottom to top. */
  ticks: { y: number; value: number }[];
  /** Indexes of the bars that get a date label (every n-th, so labels never overlap). */
  labelled: number[];
  max: number;
}

/** The smallest "nice" number (1, 2, 5 × 10^k) at or above a value; at least 1. */
export function niceCeiling(value: number): number {
  if (value <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) {
    if (step * magnitude >= value) return step * magnitude;
  }
  return 10 * magnitude;
}

export function barChartLayout(series: DailyCount[], box: ChartBox, maxLabels = 8): ChartLayout {
  const plotWidth = box.width - box.left - box.right;
  const plotHeight = box.height - box.top - box.bottom;
  const max = niceCeiling(Math.max(0, ...series.map((point) => point.count)));
  const slot = series.length > 0 ? plotWidth / series.length : 0;
  const gap = Math.min(4, slot * 0.2);
  const bars = series.map((point, index) => {
    const height = (point.count / max) * plotHeight;
    return {
      x: box.left + index * slot + gap / 2,
      y: box.top + plotHeight - height,
      width: Math.max(1, slot - gap),
      height,
      date: point.date,
      count: point.count,
    };
  });
  // Whole-number ticks only: counts are integers.
  const tickCount = Math.min(4, max);
  const ticks = Array.from({ length: tickCount + 1 }, (_, index) => {
    const value = (max / tickCount) * index;
    return { y: box.top + plotHeight - (value / max) * plotHeight, value };
  }).filter((tick) => Number.isInteger(tick.value));
  const every = Math.max(1, Math.ceil(series.length / maxLabels));
  const labelled = series.map((_, index) => index).filter((index) => index % every === 0);
  return { bars, ticks, labelled, max };
}
