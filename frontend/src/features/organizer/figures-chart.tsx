import { useId } from 'react';
import { formatClock, formatShortDate, type OrganizerPoint } from '@awhh/machines';
import styles from './organizer.module.css';

const WIDTH = 320;
const HEIGHT = 132;
const PAD = { top: 12, right: 12, bottom: 26, left: 34 };

export interface FiguresChartProps {
  title: string;
  /** The series, cumulative, oldest first. */
  points: readonly OrganizerPoint[];
  /** Where the line ends on the right: now while the series still grows, else its last point. */
  until: string;
  /** The y axis reaches at least this far (the places, when known). */
  ceiling?: number | null;
  /** How the description says it: "{total} von {ceiling} {of} {verb}" ("Plätzen", "verkauft"). */
  wording: { of: string; verb: string };
  /** The time axis in clock times (an evening) or dates (weeks of sales). */
  scale: 'clock' | 'date';
  /** Said instead of the chart while the series is empty. */
  empty: string;
}

function label(at: string | number, scale: 'clock' | 'date'): string {
  const date = new Date(at);
  return (scale === 'clock' ? formatClock(date) : formatShortDate(date)) ?? '';
}

/**
 * rules "The organizer": a cumulative series as a step line, drawn as plain SVG. For screen
 * readers it is one image whose title and description say what the line shows: the total,
 * and when it started and last grew.
 */
export function FiguresChart({
  title,
  points,
  until,
  ceiling,
  wording,
  scale,
  empty,
}: FiguresChartProps) {
  const titleId = useId();
  const descId = useId();
  if (points.length === 0) {
    return (
      <figure className={styles.chart}>
        <figcaption className={styles.chartTitle}>{title}</figcaption>
        <p className={styles.chartEmpty}>{empty}</p>
      </figure>
    );
  }
  const first = Date.parse(points[0]!.at);
  const last = points.at(-1)!;
  const total = last.count;
  const end = Math.max(Date.parse(until), Date.parse(last.at));
  const span = Math.max(end - first, 60_000);
  const top = Math.max(total, ceiling ?? 0, 1);
  const x = (at: number) => PAD.left + ((at - first) / span) * (WIDTH - PAD.left - PAD.right);
  const y = (count: number) =>
    HEIGHT - PAD.bottom - (count / top) * (HEIGHT - PAD.top - PAD.bottom);

  let path = `M${x(first).toFixed(1)},${y(0).toFixed(1)}`;
  for (const p of points) {
    const px = x(Date.parse(p.at)).toFixed(1);
    path += ` H${px} V${y(p.count).toFixed(1)}`;
  }
  path += ` H${x(end).toFixed(1)}`;
  const area = `${path} V${y(0).toFixed(1)} Z`;

  const at = (value: string | number) =>
    scale === 'clock' ? `${label(value, scale)} Uhr` : label(value, scale);
  const description =
    `${total}${ceiling ? ` von ${ceiling} ${wording.of}` : ''} ${wording.verb}, ` +
    (points.length > 1
      ? `von ${at(first)} bis ${at(last.at)}.`
      : `${scale === 'clock' ? 'um' : 'am'} ${at(last.at)}.`);

  return (
    <figure className={styles.chart}>
      <figcaption className={styles.chartTitle}>{title}</figcaption>
      <svg
        className={styles.chartSvg}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={titleId}
        aria-describedby={descId}
      >
        <title id={titleId}>{title}</title>
        <desc id={descId}>{description}</desc>
        <line
          className={styles.chartAxis}
          x1={PAD.left}
          x2={WIDTH - PAD.right}
          y1={y(0)}
          y2={y(0)}
        />
        <line
          className={styles.chartGrid}
          x1={PAD.left}
          x2={WIDTH - PAD.right}
          y1={y(top)}
          y2={y(top)}
        />
        <text className={styles.chartLabel} x={PAD.left - 6} y={y(top) + 4} textAnchor="end">
          {top}
        </text>
        <text className={styles.chartLabel} x={PAD.left - 6} y={y(0) + 4} textAnchor="end">
          0
        </text>
        <path className={styles.chartArea} d={area} />
        <path className={styles.chartLine} d={path} />
        <circle className={styles.chartDot} cx={x(Date.parse(last.at))} cy={y(total)} r={3.5} />
        <text
          className={styles.chartValue}
          x={Math.min(x(Date.parse(last.at)) + 7, WIDTH - PAD.right - 14)}
          y={Math.max(y(total) - 6, PAD.top + 10)}
        >
          {total}
        </text>
        <text className={styles.chartLabel} x={PAD.left} y={HEIGHT - 8} textAnchor="start">
          {label(first, scale)}
        </text>
        {label(end, scale) !== label(first, scale) ? (
          <text className={styles.chartLabel} x={WIDTH - PAD.right} y={HEIGHT - 8} textAnchor="end">
            {label(end, scale)}
          </text>
        ) : null}
      </svg>
    </figure>
  );
}
