/**
 * Parsing of chart message bodies (protocol/charts.ts). Agents write these, so the shape is
 * checked strictly: every field present and typed, series as long as the x axis, within
 * `chartLimits`, numbers finite. Anything else yields null and the body shows as plain text.
 */
import { chartLimits, type ChartMessage } from '../protocol/charts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isName = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= chartLimits.maxTitleLength;
const isPoint = (value: unknown): value is number | null => value === null || (typeof value === 'number' && Number.isFinite(value));

/** The chart in a parsed message body, or null when it is not a well-formed chart. */
export function parseChart(value: unknown): ChartMessage | null {
  if (!isObject(value) || value.type !== 'chart') return null;
  const { title, kind, x, series } = value;
  if (!isName(title) || (kind !== 'line' && kind !== 'bar')) return null;
  if (!isObject(x) || !isName(x.name) || !Array.isArray(x.values)) return null;
  const points = x.values.length;
  if (points < chartLimits.minPoints || points > chartLimits.maxPoints) return null;
  if (!x.values.every((label): label is string => typeof label === 'string' && label.length <= chartLimits.maxTitleLength)) return null;
  if (!Array.isArray(series) || series.length === 0 || series.length > chartLimits.maxSeries) return null;
  const parsedSeries: ChartMessage['series'] = [];
  for (const entry of series) {
    if (!isObject(entry) || !isName(entry.name) || !Array.isArray(entry.values)) return null;
    if (entry.values.length !== points || !entry.values.every(isPoint)) return null;
    if (!entry.values.some((point) => point !== null)) return null;
    parsedSeries.push({ name: entry.name, values: entry.values as (number | null)[] });
  }
  return { type: 'chart', title, kind, x: { name: x.name, values: x.values as string[] }, series: parsedSeries };
}
