import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { errorResponse } from '@confab/client/testing/fakeBackend';
import { clientMessage } from '../../testing/builders';
import { withConfab } from '../../storybook/withConfab';
import { Message } from '../Message/Message';
import { FileMessageCard } from './FileMessageCard';

const salesCsv = { file_id: 'file00000000001', name: 'sales.csv', file: 'sales_abcdefghij.csv', type: 'text/csv', size: 48_210 };

const meta = {
  title: 'Components/FileMessageCard',
  component: FileMessageCard,
  args: { file: salesCsv },
  decorators: [withConfab({ signedIn: true }), (Story) => <div style={{ maxWidth: 760, padding: 16 }}><Story /></div>],
} satisfies Meta<typeof FileMessageCard>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A CSV someone shared: name, type, size and Download (a browser would not show it in place). */
export const Document: Story = {
  play: async ({ canvasElement }) => {
    const card = within(canvasElement).getByRole('region', { name: 'File sales.csv' });
    await expect(await within(card).findByRole('link', { name: 'Download sales.csv' })).toBeInTheDocument();
  },
};

/** A PDF: Preview opens it in a new tab, sandboxed by the server. */
export const Pdf: Story = { args: { file: { ...salesCsv, name: 'Q3 plan.pdf', file: 'q3_plan_abcdefghij.pdf', type: 'application/pdf', size: 1_240_000 } } };

/** Audio plays in the card, as in the files panel. */
export const Audio: Story = { args: { file: { ...salesCsv, name: 'standup.mp3', file: 'standup_abcdefghij.mp3', type: 'audio/mpeg', size: 3_400_000 } } };

/** An image type the server's operator allowed: shown inline (here the fake has no bytes, so the picture is broken). */
export const Image: Story = { args: { file: { ...salesCsv, name: 'chart.png', file: 'chart_abcdefghij.png', type: 'image/png', size: 84_000 } } };

/** The file was deleted since: the card says so and offers nothing. */
export const Deleted: Story = {
  args: { file: { ...salesCsv, deleted: true } },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('File deleted')).toBeInTheDocument();
  },
};

/** No file token (the session ended): Download asks for one when pressed, and says so if it fails. */
export const TokenUnavailable: Story = {
  decorators: [withConfab({ signedIn: true, configure: (backend) => backend.override('POST /api/files/token', () => errorResponse(401, 'Missing or invalid authentication.')) })],
};

/** A long name wraps inside the card. */
export const LongName: Story = { args: { file: { ...salesCsv, name: `${'quarterly-regional-sales-breakdown-'.repeat(4)}final.csv` } } };

/** In a message: the card under its author, loaded on demand (a box of its height while it loads). */
export const InAMessage: Story = {
  render: () => <Message message={clientMessage({ content: 'shared sales.csv', message_type: 'file', author_name: 'Ann', file: salesCsv }, { minutesAgo: 3 })} />,
};
