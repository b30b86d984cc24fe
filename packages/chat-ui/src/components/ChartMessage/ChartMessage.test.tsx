import type { ChartMessage as ChartData } from '@confab/client';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { clientMessage } from '../../testing/builders';
import { Message } from '../Message/Message';
import { ChartMessage, chartSummary, tickIndexes } from './ChartMessage';

const line: ChartData = {
  type: 'chart',
  title: 'Revenue by month',
  kind: 'line',
  x: { name: 'month', values: ['2024-01', '2024-02', '2024-03'] },
  series: [{ name: 'revenue', values: [120, 1350.5, null] }],
};

const bars: ChartData = {
  type: 'chart',
  title: 'Sales by region',
  kind: 'bar',
  x: { name: 'region', values: ['north', 'south'] },
  series: [
    { name: 'sales', values: [22.5, 7] },
    { name: 'returns', values: [1, 2] },
  ],
};

describe('ChartMessage', () => {
  it('draws an image with a summary, a title and axis labels', () => {
    render(<ChartMessage data={line} />);
    const image = screen.getByRole('img', { name: 'Line chart: Revenue by month. 3 values of month from 2024-01 to 2024-03; revenue from 120 to 1,350.5.' });
    expect(image.querySelector('title')?.textContent).toBe('Revenue by month');
    expect(within(image).getByText('month')).toBeInTheDocument();
    expect(within(image).getAllByText('revenue').length).toBeGreaterThan(0);
    expect(image.querySelectorAll('path')).toHaveLength(1);
  });

  it('labels every category of four regions on the axis', () => {
    const regions: ChartData = { type: 'chart', title: 'total by region', kind: 'bar', x: { name: 'region', values: ['north', 'south', 'east', 'west'] }, series: [{ name: 'total', values: [13, 7, 4, 12] }] };
    render(<ChartMessage data={regions} />);
    const image = screen.getByRole('img', { name: chartSummary(regions) });
    const ticks = [...image.querySelectorAll('text.cf-chart__tick')].map((tick) => tick.textContent);
    expect(ticks).toEqual(expect.arrayContaining(['north', 'south', 'east', 'west']));
    expect(image.querySelectorAll('rect')).toHaveLength(4);
  });

  it('thins the labels of a long axis evenly, keeping the first and the last', () => {
    const days = Array.from({ length: 60 }, (_, index) => `2024-03-${String(index + 1).padStart(2, '0')}`);
    const shown = tickIndexes(days);
    expect(shown[0]).toBe(0);
    expect(shown.at(-1)).toBe(59);
    expect(shown.length).toBeGreaterThan(3);
    expect(shown.length).toBeLessThan(10);
    expect(tickIndexes(['a', 'b', 'c', 'd', 'e', 'f'])).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('shows the values as a table captioned with the title, folded: the answer above already has them', async () => {
    render(<ChartMessage data={line} />);
    const table = screen.getByRole('table', { name: 'Revenue by month' });
    const values = table.closest('details')!;
    expect(values).not.toHaveAttribute('open');
    await userEvent.setup().click(screen.getByText('Show the values'));
    expect(values).toHaveAttribute('open');
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['month', 'revenue']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([['120'], ['1,350.5'], ['–']]);
    expect(within(table).getByRole('rowheader', { name: '2024-02' })).toBeInTheDocument();
  });

  it('draws a bar per value and series', () => {
    render(<ChartMessage data={bars} />);
    const image = screen.getByRole('img', { name: chartSummary(bars) });
    expect(image.querySelectorAll('rect')).toHaveLength(4);
    expect(chartSummary(bars)).toBe('Bar chart: Sales by region. 2 values of region from north to south; sales from 7 to 22.5; returns from 1 to 2.');
    expect(screen.getByRole('table', { name: 'Sales by region' })).toBeInTheDocument();
  });

  it('is how a message whose body is a chart shows, and a malformed chart shows as text', async () => {
    const { unmount } = render(<Message message={clientMessage({ content: JSON.stringify(bars), is_agent: true, author_name: 'Data' })} />);
    // Message loads the chart's code on demand, so the chart arrives after a placeholder.
    expect(await screen.findByRole('img', { name: chartSummary(bars) })).toBeInTheDocument();
    unmount();
    const broken = JSON.stringify({ ...bars, kind: 'pie' });
    render(<Message message={clientMessage({ content: broken })} />);
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.getByText(broken)).toBeInTheDocument();
  });
});
