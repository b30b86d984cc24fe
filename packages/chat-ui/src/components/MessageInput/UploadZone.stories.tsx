import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import { expect, userEvent, within } from 'storybook/test';
import { errorResponse } from '@confab/client/testing/fakeBackend';
import { storyChats } from '../../storybook/storyData';
import { withConfab } from '../../storybook/withConfab';
import { UploadZone } from './UploadZone';
import { narrow } from '../../storybook/storyStates';

const chatId = storyChats[0]?.id ?? '';
const signedIn = { signedIn: true, state: { chats: storyChats } };

const meta = {
  title: 'Components/UploadZone',
  component: UploadZone,
  args: { chatId, onUploaded: action('uploaded') },
  decorators: [(Story) => <div style={{ maxWidth: 640, padding: 16 }}><Story /></div>],
} satisfies Meta<typeof UploadZone>;

export default meta;
type Story = StoryObj<typeof meta>;

const pick = (canvasElement: HTMLElement, files: File[]) => userEvent.upload(within(canvasElement).getByLabelText('Choose files to upload'), files);

/** A drop as React sees it; a real DataTransfer cannot carry a file whose size is faked. */
function drop(target: HTMLElement, files: File[]): void {
  const event = new Event('drop', { bubbles: true, cancelable: true });
  Object.defineProperty(event, 'dataTransfer', { value: { files, types: ['Files'] } });
  target.dispatchEvent(event);
}

export const Idle: Story = { decorators: [withConfab(signedIn)] };

/** The server never answers: each file stays in progress. */
export const Uploading: Story = {
  decorators: [withConfab({ ...signedIn, pending: true })],
  play: async ({ canvasElement }) => {
    await pick(canvasElement, [new File(['# Plan'], 'plan.md'), new File(['a,b'], 'budget.csv')]);
    await expect(within(canvasElement).getAllByRole('progressbar')).toHaveLength(2);
  },
};

export const RecentlyUploaded: Story = {
  decorators: [withConfab(signedIn)],
  play: async ({ canvasElement }) => {
    await pick(canvasElement, [new File(['# Plan'], 'plan.md'), new File(['ID3'], 'standup.mp3')]);
    await expect(await within(canvasElement).findByRole('list', { name: 'Recently uploaded' })).toBeVisible();
  },
};

/** Checked before sending: an unsupported extension and a file over 100 MB. */
export const RefusedFiles: Story = {
  decorators: [withConfab(signedIn)],
  play: async ({ canvasElement }) => {
    const big = Object.defineProperty(new File(['x'], 'video-dump.csv'), 'size', { value: 101 * 1024 * 1024 });
    const zone = within(canvasElement).getByRole('region', { name: 'Upload zone' });
    drop(zone, [new File(['MZ'], 'setup.exe'), big]);
    await expect(await within(canvasElement).findAllByRole('alert')).toHaveLength(2);
  },
};

/** The server refuses the upload: its reason is shown after 'Failed to upload {name}:'. */
export const ServerRefusal: Story = {
  decorators: [
    withConfab({
      ...signedIn,
      configure: (backend) =>
        backend.override('POST /api/collections/files/records', () => errorResponse(400, 'The file content does not match its .pdf extension.')),
    }),
  ],
  play: async ({ canvasElement }) => {
    await pick(canvasElement, [new File(['<html>'], 'report.pdf')]);
    await expect(await within(canvasElement).findByRole('alert')).toBeVisible();
  },
};

/** RecentlyUploaded on a phone (390×844). */
export const Narrow: Story = { ...RecentlyUploaded, ...narrow, tags: ['narrow'] };

/** RecentlyUploaded, right to left. */
export const RightToLeft: Story = { ...RecentlyUploaded, parameters: { ...RecentlyUploaded.parameters, direction: 'rtl' } };
