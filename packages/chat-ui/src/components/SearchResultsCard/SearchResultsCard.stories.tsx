import type { Meta, StoryObj } from '@storybook/react-vite';
import { searchResultsData } from '../../testing/builders';
import { SearchResultsCard } from './SearchResultsCard';
import { narrow } from '../../storybook/storyStates';

const now = Date.parse('2026-01-05T12:30:00Z');

const meta = {
  title: 'Components/SearchResultsCard',
  component: SearchResultsCard,
  args: { now },
  decorators: [(Story) => <div style={{ maxWidth: 720, padding: 24 }}><Story /></div>],
} satisfies Meta<typeof SearchResultsCard>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Fewer than 8 results: one page, no pagination. */
export const OnePage: Story = { args: { data: searchResultsData(5) } };

/** 20 results: pages 1–3 with Previous/Next and 'Showing 1-8 of 20 results'. */
export const ManyPages: Story = { args: { data: searchResultsData(20) } };

export const Truncated: Story = {
  args: { data: searchResultsData(12, { metadata: { truncated: true, original_count: 57 }, total_results: 57 }) },
};

export const Empty: Story = { args: { data: searchResultsData(0) } };

/** One result of one search (counts agree in number), its snippet written in markdown shown as plain text. */
export const MarkdownSnippet: Story = {
  args: {
    data: searchResultsData(1, {
      searches_performed: 1,
      results: [
        {
          title: 'Launch checklist for v2',
          url: 'https://confab.example/drops/launch-checklist-for-v2',
          domain: 'confab.example',
          snippet: '## Monday\n\nWe ship **2026-11-26**; press `shift-enter` for a [new line](https://example.com). See you _Monday_.',
          rank: 1,
        },
      ],
    }),
  },
};

export const Chinese: Story = { args: { data: searchResultsData(3), locale: 'zh' } };

/** ManyPages on a phone (390×844). */
export const Narrow: Story = { ...ManyPages, ...narrow, tags: ['narrow'] };

/** ManyPages, right to left. */
export const RightToLeft: Story = { ...ManyPages, parameters: { ...ManyPages.parameters, direction: 'rtl' } };
