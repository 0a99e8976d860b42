import { chartGeometry } from '../logic/chart.js';

const W = 600;
const H = 120;

/** A line chart of one series over [from, to]; the axis top and the last value as text. */
export function Chart(props: { title: string; points: { at: number; value: number }[]; from: number; to: number; floor: number; format: (n: number) => string }) {
  const g = chartGeometry(props.points, { width: W, height: H, from: props.from, to: props.to, floor: props.floor });
  const last = props.points[props.points.length - 1];
  const minutes = Math.round((props.to - props.from) / 60_000);
  return (
    <figure className="chart">
      <figcaption>
        <span>{props.title}</span>
        <span className="muted">{last ? props.format(last.value) : 'no samples yet'}</span>
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" role="img" aria-label={`${props.title} over the last ${minutes} minutes, up to ${props.format(g.max)}`}>
        <line x1="0" y1={H / 2} x2={W} y2={H / 2} className="grid" />
        {g.area && <path d={g.area} className="area" />}
        {g.line && <path d={g.line} className="line" vectorEffect="non-scaling-stroke" />}
      </svg>
      <div className="chart-axis muted">
        <span>-{minutes} min</span>
        <span>max {props.format(g.max)}</span>
        <span>now</span>
      </div>
    </figure>
  );
}
