import { countLabel, type ChartMessage as ChartData } from '@confab/client';

export interface ChartMessageProps {
  /** A chart as `renderMessageContent` parsed it (`{ kind: 'chart', data }`). */
  data: ChartData;
}

const width = 480;
const height = 240;
const margin = { top: 16, right: 16, bottom: 48, left: 56 };
const plotWidth = width - margin.left - margin.right;
const plotHeight = height - margin.top - margin.bottom;
const seriesColors = 6;
/** Tick labels: the average width of a character at the theme's 11px, the room kept between labels, the longest label. */
const tickCharWidth = 6.5;
const tickGap = 8;
const tickMaxChars = 24;

/** Numbers as people read them: at most 2 decimals, thousands grouped. */
export function formatChartNumber(value: number | null): string {
  return value === null ? '–' : value.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** The sentence a screen reader hears for the picture: kind, title, x range, each series' range. */
export function chartSummary(data: ChartData): string {
  const labels = data.x.values;
  const ranges = data.series.map((series) => {
    const present = series.values.filter((value): value is number => value !== null);
    return `${series.name} from ${formatChartNumber(Math.min(...present))} to ${formatChartNumber(Math.max(...present))}`;
  });
  return `${data.kind === 'line' ? 'Line' : 'Bar'} chart: ${data.title}. ${countLabel(labels.length, 'value')} of ${data.x.name} from ${labels[0] ?? ''} to ${labels[labels.length - 1] ?? ''}; ${ranges.join('; ')}.`;
}

/**
 * Which x labels the axis shows: every one that fits (every category of a bar chart, usually),
 * else as many as fit, evenly spread, the first and the last among them. The table under the
 * chart holds them all.
 */
export function tickIndexes(labels: readonly string[], room: number = plotWidth): number[] {
  const points = labels.length;
  const longest = Math.max(1, ...labels.map((label) => Math.min(label.length, tickMaxChars)));
  const fitting = Math.max(2, Math.floor(room / (longest * tickCharWidth + tickGap)));
  if (points <= fitting) return labels.map((_, index) => index);
  return [...new Set(Array.from({ length: fitting }, (_, index) => Math.round((index * (points - 1)) / (fitting - 1))))];
}

/** A tick label cut to the longest one the axis makes room for. */
function tickText(label: string): string {
  return label.length > tickMaxChars ? `${label.slice(0, tickMaxChars - 1)}…` : label;
}

function valueRange(data: ChartData): { low: number; high: number } {
  const values = data.series.flatMap((series) => series.values.filter((value): value is number => value !== null));
  let low = Math.min(...values);
  let high = Math.max(...values);
  // Bars start at zero; a flat line still gets some height.
  if (data.kind === 'bar') {
    low = Math.min(0, low);
    high = Math.max(0, high);
  }
  if (low === high) {
    low -= 1;
    high += 1;
  }
  return { low, high };
}

/**
 * A chart message (protocol/charts.ts): a small SVG line or bar chart, role="img" with a
 * summary for screen readers, axis labels and a legend, and under it the same values as a table
 * with the title as its caption. The table is folded ('Show the values'): the agent's answer just
 * before the chart already shows it (@data), and it would read twice.
 */
export function ChartMessage({ data }: ChartMessageProps) {
  const points = data.x.values.length;
  const { low, high } = valueRange(data);
  const y = (value: number) => margin.top + plotHeight - ((value - low) / (high - low)) * plotHeight;
  const step = plotWidth / points;
  const xCenter = (index: number) => margin.left + step * index + step / 2;
  const ticks = tickIndexes(data.x.values);
  const barWidth = (step * 0.8) / data.series.length;
  return (
    <figure className="cf-chart">
      <svg className="cf-chart__svg" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={chartSummary(data)}>
        <title>{data.title}</title>
        <line className="cf-chart__axis" x1={margin.left} y1={margin.top + plotHeight} x2={width - margin.right} y2={margin.top + plotHeight} />
        <line className="cf-chart__axis" x1={margin.left} y1={margin.top} x2={margin.left} y2={margin.top + plotHeight} />
        <text className="cf-chart__tick" x={margin.left - 6} y={y(high)} textAnchor="end" dominantBaseline="middle">
          {formatChartNumber(high)}
        </text>
        <text className="cf-chart__tick" x={margin.left - 6} y={y(low)} textAnchor="end" dominantBaseline="middle">
          {formatChartNumber(low)}
        </text>
        {ticks.map((index) => (
          <text key={index} className="cf-chart__tick" x={xCenter(index)} y={margin.top + plotHeight + 14} textAnchor="middle">
            {tickText(data.x.values[index] ?? '')}
          </text>
        ))}
        <text className="cf-chart__label" x={margin.left + plotWidth / 2} y={height - 8} textAnchor="middle">
          {data.x.name}
        </text>
        <text className="cf-chart__label" transform={`translate(12 ${margin.top + plotHeight / 2}) rotate(-90)`} textAnchor="middle">
          {data.series.length === 1 ? data.series[0]?.name : 'value'}
        </text>
        {data.series.map((series, seriesIndex) => {
          const colorClass = `cf-chart__series cf-chart__series--${(seriesIndex % seriesColors) + 1}`;
          if (data.kind === 'bar') {
            return (
              <g key={series.name} className={colorClass}>
                {series.values.map((value, index) =>
                  value === null ? null : (
                    <rect
                      key={index}
                      x={margin.left + step * index + step * 0.1 + barWidth * seriesIndex}
                      y={Math.min(y(value), y(0))}
                      width={barWidth}
                      height={Math.abs(y(value) - y(0))}
                    />
                  ),
                )}
              </g>
            );
          }
          const path = series.values
            .map((value, index) => (value === null ? '' : `${index === 0 || series.values[index - 1] === null ? 'M' : 'L'}${xCenter(index).toFixed(1)} ${y(value).toFixed(1)}`))
            .join(' ');
          return <path key={series.name} className={colorClass} d={path} fill="none" />;
        })}
      </svg>
      {data.series.length > 1 ? (
        <ul className="cf-chart__legend" aria-hidden="true">
          {data.series.map((series, seriesIndex) => (
            <li key={series.name}>
              <span className={`cf-chart__swatch cf-chart__series--${(seriesIndex % seriesColors) + 1}`} />
              {series.name}
            </li>
          ))}
        </ul>
      ) : null}
      <details className="cf-chart__values">
        <summary>Show the values</summary>
        <div className="cf-chart__table-wrap">
          <table className="cf-chart__table">
            <caption>{data.title}</caption>
            <thead>
              <tr>
                <th scope="col">{data.x.name}</th>
                {data.series.map((series) => (
                  <th key={series.name} scope="col">
                    {series.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.x.values.map((label, index) => (
                <tr key={index}>
                  <th scope="row">{label}</th>
                  {data.series.map((series) => (
                    <td key={series.name}>{formatChartNumber(series.values[index] ?? null)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
