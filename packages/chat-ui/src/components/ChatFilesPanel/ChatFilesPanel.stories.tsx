import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import { expect, userEvent, within } from 'storybook/test';
import type { FakeBackend } from '@confab/client/testing/fakeBackend';
import { errorResponse } from '@confab/client/testing/fakeBackend';
import { storyUserRecord } from '../../storybook/storyClient';
import { storyChats } from '../../storybook/storyData';
import { withConfab } from '../../storybook/withConfab';
import { ChatFilesPanel } from './ChatFilesPanel';
import { narrow } from '../../storybook/storyStates';

const chatId = storyChats[0]?.id ?? '';
const bobId = 'storyuser000002';

const meta = {
  title: 'Components/ChatFilesPanel',
  component: ChatFilesPanel,
  args: { chatId, onClose: action('close') },
} satisfies Meta<typeof ChatFilesPanel>;

export default meta;
type Story = StoryObj<typeof meta>;

const names = ['Q3 plan.pdf', 'standup.mp3', 'budget.xlsx', 'notes.md', 'index.html', 'customers.csv', 'interview.m4a', 'server.log', 'spec.docx', 'data.json'];

/** 24 files from Alice and Bob, a few of them audio. */
function seedFiles(backend: FakeBackend, count = 24): void {
  for (let index = 0; index < count; index += 1) {
    const name = names[index % names.length] ?? 'file.txt';
    backend.addFile({
      chat: chatId,
      uploaded_by: index % 3 === 0 ? bobId : storyUserRecord.id,
      original_name: index < names.length ? name : `v${Math.floor(index / names.length) + 1} ${name}`,
      size: 800 + index * 150_000,
      description: index === 0 ? 'The plan we agreed on Monday' : '',
    });
  }
}

const withFiles = (configure?: (backend: FakeBackend) => void) =>
  withConfab({ signedIn: true, state: { chats: storyChats }, configure: configure ?? ((backend) => seedFiles(backend)) });

export const Populated: Story = { decorators: [withFiles()] };

export const Loading: Story = { decorators: [withConfab({ signedIn: true, pending: true, state: { chats: storyChats } })] };

export const LoadFailed: Story = {
  decorators: [withFiles((backend) => backend.override('GET /api/collections/files/records', () => errorResponse(500, 'Database unavailable.')))],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement.ownerDocument.body);
    await expect(await canvas.findByText('Failed to load files. Please try again.')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Retry' })).toBeEnabled();
  },
};

export const Empty: Story = {
  decorators: [withFiles(() => {})],
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement.ownerDocument.body).findByText('No files have been uploaded to this chat yet.')).toBeVisible();
  },
};

export const NoMatch: Story = {
  decorators: [withFiles()],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(await canvas.findByRole('searchbox', { name: 'Search files' }), 'nothing like this');
    await expect(await canvas.findByText('No files match your search. Try a different query.')).toBeVisible();
  },
};

export const GridView: Story = {
  decorators: [withFiles()],
  play: async ({ canvasElement }) => {
    await userEvent.click(await within(canvasElement).findByRole('button', { name: 'Grid view' }));
  },
};

/** Select mode with two files picked; Bob's files cannot be deleted by Alice (partial failure). */
export const SelectMode: Story = {
  decorators: [withFiles()],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('list', { name: 'Files' });
    await userEvent.click(canvas.getByRole('button', { name: 'Select' }));
    const boxes = canvas.getAllByRole('checkbox');
    for (const box of boxes.slice(0, 2)) await userEvent.click(box);
    await expect(canvas.getByRole('button', { name: 'Delete selected (2)' })).toBeEnabled();
  },
};

export const AudioPreview: Story = {
  decorators: [withFiles((backend) => seedFiles(backend, names.length))],
  play: async ({ canvasElement }) => {
    await userEvent.click(await within(canvasElement).findByRole('button', { name: 'standup.mp3' }));
  },
};

export const DocumentPreview: Story = {
  decorators: [withFiles((backend) => seedFiles(backend, names.length))],
  play: async ({ canvasElement }) => {
    await userEvent.click(await within(canvasElement).findByRole('button', { name: 'Q3 plan.pdf' }));
  },
};

/** No file token: Download falls back to a button that reports 'Failed to download file'. */
export const TokenUnavailable: Story = {
  decorators: [
    withFiles((backend) => {
      seedFiles(backend, 3);
      backend.override('POST /api/files/token', () => errorResponse(500, 'Token service down.'));
    }),
  ],
};

/** Populated on a phone (390×844). */
export const Narrow: Story = { ...Populated, ...narrow, tags: ['narrow'] };

/** Populated, right to left. */
export const RightToLeft: Story = { ...Populated, parameters: { ...Populated.parameters, direction: 'rtl' } };
