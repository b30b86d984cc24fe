/**
 * A chart message (docs/CONTRACTS.md, Hosted agents; @data): a message whose whole content is this
 * JSON. Agents post it with `reply.send(JSON.stringify(chart))`; clients render it as a chart with
 * its values as a table (`renderMessageContent` answers `{ kind: 'chart', data }`), and show
 * anything malformed as plain text. Types and limits only.
 *
 * @example
 * { "type": "chart", "title": "Revenue by month", "kind": "line",
 *   "x": { "name": "month", "values": ["2024-01", "2024-02"] },
 *   "series": [{ "name": "revenue", "values": [120, 135.5] }] }
 */
export interface ChartMessage {
  type: 'chart';
  title: string;
  /** A line over dates or ordered values, bars over categories. */
  kind: 'line' | 'bar';
  /** The x axis: dates or categories, as text. */
  x: { name: string; values: string[] };
  /** One or more numeric series, each as long as `x.values`; null where a value is missing. */
  series: { name: string; values: (number | null)[] }[];
}

/** What a chart may hold: at least 2 and at most 100 points, 1 to 6 series, titles ≤ 200 characters. */
export const chartLimits = { minPoints: 2, maxPoints: 100, maxSeries: 6, maxTitleLength: 200 } as const;
