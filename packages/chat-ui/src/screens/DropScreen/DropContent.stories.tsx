import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { longNames, narrow, rtlText, withRtl } from '../../storybook/storyStates';
import { DropContent } from './DropContent';

/** A drop's body: markdown rendered to sanitised HTML. */
const meta = {
  title: 'Drops/DropContent',
  component: DropContent,
  decorators: [(Story) => <main style={{ maxWidth: 720, padding: 16 }}><Story /></main>],
} satisfies Meta<typeof DropContent>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Markdown: Story = {
  args: {
    content: '## Monday\n\nWhat ships, and **who signs off**.\n\n- [x] Freeze\n- [ ] Ship\n\n> Roll back if the migration misbehaves.\n\n`pnpm release`',
  },
};

/** Script and inline handlers never survive the sanitiser. */
export const Sanitised: Story = {
  args: { content: 'Hello <img src="x" alt="A chart" onerror="alert(1)"> <script>alert(2)</script> **world**' },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('script')).toBeNull();
    await expect(within(canvasElement).getByText('world')).toBeVisible();
  },
};

export const Empty: Story = { args: { content: '' } };

/** An unbroken word wraps instead of widening the page. */
export const LongWords: Story = { args: { content: `${longNames.word} ${longNames.word}` } };

export const Narrow: Story = { ...narrow, tags: ['narrow'], args: { content: `## ${longNames.chat}\n\n${longNames.word}` } };

export const RightToLeft: Story = { args: { content: `## ${rtlText.chat}\n\n${rtlText.message}` }, decorators: [withRtl] };
