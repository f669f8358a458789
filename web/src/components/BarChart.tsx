import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { barChartLayout, type DailyCount } from '../lib/chart.js';
import { formatUtcDay } from '../lib/time.js';

const BOX = { height: 220, left: 36, right: 8, top: 12, bottom: 28 };

/**
 * A daily series as SVG bars. The SVG scales to its container, so `width` (in the drawing's own
 * units) should be near the width it gets on screen, to keep the text readable; `labels` is the
 * most day labels under it. Its numbers are also given as a table for screen readers. `today`
 * (a UTC day, ISO) is marked with a dashed line and its bar drawn in the accent colour.
 */
export function BarChart({ title, series, today, width, labels }: { title: string; series: DailyCount[]; today?: string; width: number; labels: number }) {
  const { t } = useTranslation('stats');
  const box = { ...BOX, width };
  const layout = barChartLayout(series, box, labels);
  const titleId = useId();
  const total = series.reduce((sum, point) => sum + point.count, 0);
  const todayKey = today?.slice(0, 10);
  // Today is marked even when its count is 0 (a bar of no height would not show).
  const todayBar = layout.bars.find((bar) => bar.date.slice(0, 10) === todayKey);
  return (
    <figure className={width > 900 ? 'chart chart-wide' : 'chart'}>
      <figcaption id={titleId}>
        <span className="chart-title">{title}</span>
        <span className="chart-total">{t('chart.total', { total })}</span>
      </figcaption>
      <svg viewBox={`0 0 ${box.width} ${box.height}`} role="img" aria-labelledby={titleId} className="chart-svg">
        {layout.ticks.map((tick) => (
          <g key={tick.value}>
            <line x1={box.left} x2={box.width - box.right} y1={tick.y} y2={tick.y} className="chart-grid" />
            <text x={box.left - 6} y={tick.y + 4} textAnchor="end" className="chart-axis">
              {tick.value}
            </text>
          </g>
        ))}
        {todayBar && (
          <line x1={todayBar.x + todayBar.width / 2} x2={todayBar.x + todayBar.width / 2} y1={box.top} y2={box.height - box.bottom} className="chart-today" />
        )}
        {layout.bars.map((bar) => (
          <rect
            key={bar.date}
            x={bar.x}
            y={bar.y}
            width={bar.width}
            height={bar.height}
            className={bar.date.slice(0, 10) === todayKey ? 'chart-bar chart-bar-today' : 'chart-bar'}
          >
            <title>{t('chart.bar', { day: formatUtcDay(bar.date), value: bar.count })}</title>
          </rect>
        ))}
        {layout.labelled.map((index) => {
          const bar = layout.bars[index]!;
          return (
            <text key={bar.date} x={bar.x + bar.width / 2} y={box.height - 8} textAnchor="middle" className="chart-axis">
              {formatUtcDay(bar.date)}
            </text>
          );
        })}
      </svg>
      {/* Tables ignore a 1 px width; the wrapper hides it. */}
      <div className="visually-hidden">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{t('chart.day')}</th>
              <th scope="col">{t('chart.count')}</th>
            </tr>
          </thead>
          <tbody>
            {series.map((point) => (
              <tr key={point.date}>
                <td>{formatUtcDay(point.date)}</td>
                <td>{point.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
