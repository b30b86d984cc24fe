import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { narrow, withRtl } from '../../storybook/storyStates';
import { withConfab } from '../../storybook/withConfab';
import { ShareLinkSection } from './ShareLinkSection';

const shareUrl = 'https://confab.example/join/3f9a0c';

const answering = withConfab({
  signedIn: true,
  configure: (backend) =>
    backend.override('POST /api/create-share-link/chat1', () => Response.json({ share_url: shareUrl, expires_at: '', max_uses: 50 })),
});

/** The share-link half of Invite User: none → created (Copy Link, 'Copied!') → 'Create New Link' resets it. */
const meta = {
  title: 'Screens/InviteUserScreen/ShareLinkSection',
  component: ShareLinkSection,
  args: { chatId: 'chat1', copyText: async () => {} },
  decorators: [(Story) => <main style={{ maxWidth: 560, padding: 16 }}><Story /></main>, answering],
} satisfies Meta<typeof ShareLinkSection>;

export default meta;
type Story = StoryObj<typeof meta>;

export const NoLink: Story = {};

/** Created, then copied from the keyboard: 'Copied!' is announced (it clears after 3 s). */
export const CreatedAndCopied: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Create Share Link' }));
    await expect(await canvas.findByLabelText('Share link')).toHaveValue(shareUrl);
    canvas.getByRole('button', { name: 'Copy Link' }).focus();
    await userEvent.keyboard('{Enter}');
    await expect(await canvas.findByRole('status')).toHaveTextContent('Copied!');
  },
};

/** 'Create New Link' drops the old link and offers Create Share Link again. */
export const CreateNewLink: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Create Share Link' }));
    await userEvent.click(await canvas.findByRole('button', { name: 'Create New Link' }));
    await expect(canvas.getByRole('button', { name: 'Create Share Link' })).toBeEnabled();
  },
};

/** Busy: 'Creating...' while the request is held. */
export const Creating: Story = {
  decorators: [withConfab({ signedIn: true, pending: true })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Create Share Link' }));
    await expect(canvas.getByRole('button', { name: 'Creating...' })).toBeDisabled();
  },
};

export const CreateFailed: Story = {
  decorators: [
    withConfab({ signedIn: true, configure: (backend) => backend.override('POST /api/create-share-link/chat1', () => new Response('{}', { status: 500 })) }),
  ],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Create Share Link' }));
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Failed to create share link');
  },
};

export const CopyFailed: Story = {
  args: { copyText: () => Promise.reject(new Error('denied')) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Create Share Link' }));
    await userEvent.click(await canvas.findByRole('button', { name: 'Copy Link' }));
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Failed to copy link');
  },
};

export const Narrow: Story = { ...narrow, tags: ['narrow'] };

export const RightToLeft: Story = { decorators: [withRtl] };
