import { describe, expect, it } from 'vitest';
import type { ChartMessage } from '../protocol/charts';
import { parseChart } from './charts';
import { renderMessageContent } from './renderMessageContent';

const chart = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'chart',
  title: 'Revenue by month',
  kind: 'line',
  x: { name: 'month', values: ['2024-01', '2024-02', '2024-03'] },
  series: [{ name: 'revenue', values: [120, 135.5, null] }],
  ...overrides,
});

describe('chart messages', () => {
  it('renders a well-formed chart as { kind: "chart" } with exactly its fields', () => {
    const body = JSON.stringify({ ...chart(), extra: '<script>' });
    const expected: ChartMessage = {
      type: 'chart',
      title: 'Revenue by month',
      kind: 'line',
      x: { name: 'month', values: ['2024-01', '2024-02', '2024-03'] },
      series: [{ name: 'revenue', values: [120, 135.5, null] }],
    };
    expect(renderMessageContent(body)).toEqual({ kind: 'chart', data: expected });
    expect(parseChart(JSON.parse(JSON.stringify(chart({ kind: 'bar' }))))?.kind).toBe('bar');
  });

  it.each([
    ['an unknown kind', { kind: 'pie' }],
    ['no title', { title: '' }],
    ['a numeric title', { title: 3 }],
    ['x without values', { x: { name: 'month' } }],
    ['a non-text x value', { x: { name: 'month', values: ['a', 2, 'c'] } }],
    ['one point', { x: { name: 'month', values: ['a'] }, series: [{ name: 's', values: [1] }] }],
    ['101 points', { x: { name: 'i', values: Array.from({ length: 101 }, (_, index) => String(index)) }, series: [{ name: 's', values: Array.from({ length: 101 }, () => 1) }] }],
    ['a series of the wrong length', { series: [{ name: 'revenue', values: [1, 2] }] }],
    ['a text value', { series: [{ name: 'revenue', values: [1, '2', 3] }] }],
    ['an all-null series', { series: [{ name: 'revenue', values: [null, null, null] }] }],
    ['no series', { series: [] }],
    ['seven series', { series: Array.from({ length: 7 }, (_, index) => ({ name: `s${index}`, values: [1, 2, 3] })) }],
    ['a series without a name', { series: [{ values: [1, 2, 3] }] }],
  ])('shows a chart with %s as plain text', (_label, overrides) => {
    const body = JSON.stringify(chart(overrides));
    expect(renderMessageContent(body)).toEqual({ kind: 'text', text: body });
  });

  it('shows broken JSON that mentions a chart as ordinary text', () => {
    const body = '{"type":"chart", "title": ';
    expect(renderMessageContent(body).kind).not.toBe('chart');
  });
});
