import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { ChartMessage } from './ChartMessage';
import { narrow } from '../../storybook/storyStates';

const meta = {
  title: 'Components/ChartMessage',
  component: ChartMessage,
  decorators: [(Story) => <div style={{ maxWidth: 720, padding: 24 }}><Story /></div>],
} satisfies Meta<typeof ChartMessage>;

export default meta;
type Story = StoryObj<typeof meta>;

const months = ['2024-01', '2024-02', '2024-03', '2024-04', '2024-05', '2024-06'];

/** One series over dates: a line. */
export const Line: Story = {
  args: { data: { type: 'chart', title: 'Revenue by month', kind: 'line', x: { name: 'month', values: months }, series: [{ name: 'revenue', values: [120, 135.5, 128, 160, 171.25, 190] }] } },
};

/** Two series, one with a gap (null). */
export const LineTwoSeries: Story = {
  args: {
    data: {
      type: 'chart',
      title: 'Orders and returns',
      kind: 'line',
      x: { name: 'month', values: months },
      series: [
        { name: 'orders', values: [40, 52, 48, null, 61, 70] },
        { name: 'returns', values: [3, 5, 4, 6, 2, 4] },
      ],
    },
  },
};

/** Categories: bars, every one labelled. */
export const Bar: Story = {
  args: { data: { type: 'chart', title: 'Sales by region', kind: 'bar', x: { name: 'region', values: ['north', 'south', 'east', 'west'] }, series: [{ name: 'sales', values: [22.5, 7, 14, 30] }] } },
  play: async ({ canvasElement }) => {
    const image = within(canvasElement).getByRole('img');
    for (const region of ['north', 'south', 'east', 'west']) await expect(within(image).getByText(region)).toBeInTheDocument();
  },
};

/** The values table unfolded ('Show the values'). */
export const ValuesShown: Story = {
  ...Bar,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByText('Show the values'));
    await expect(canvas.getByRole('table', { name: 'Sales by region' })).toBeVisible();
  },
};

/** Sixty days: the axis labels thinned evenly, the first and the last kept. */
export const LongAxis: Story = {
  args: {
    data: {
      type: 'chart',
      title: 'Sign-ups by day',
      kind: 'line',
      x: { name: 'day', values: Array.from({ length: 60 }, (_, index) => new Date(Date.UTC(2024, 2, 1 + index)).toISOString().slice(0, 10)) },
      series: [{ name: 'sign-ups', values: Array.from({ length: 60 }, (_, index) => 20 + ((index * 7) % 13)) }],
    },
  },
};

/** Negative values: bars grow both ways from zero. */
export const BarNegative: Story = {
  args: { data: { type: 'chart', title: 'Profit by team', kind: 'bar', x: { name: 'team', values: ['red', 'blue', 'green'] }, series: [{ name: 'profit', values: [12, -4, 6] }] } },
};

/** Bar on a phone (390×844). */
export const Narrow: Story = { ...Bar, ...narrow, tags: ['narrow'] };

/** Bar, right to left. */
export const RightToLeft: Story = { ...Bar, parameters: { ...Bar.parameters, direction: 'rtl' } };
