import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MessageFile } from '@confab/client';
import { createFakeBackend } from '@confab/client/testing/fakeBackend';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { clientMessage } from '../../testing/builders';
import { Message } from '../Message/Message';
import { FileMessageCard } from './FileMessageCard';

const ann = { id: 'user_ann_000001', username: 'ann', email: 'ann@example.com', name: 'Ann', password: 'wonderland' };
const salesCsv: MessageFile = { file_id: 'file00000000001', name: 'sales.csv', file: 'sales_abcdefghij.csv', type: 'text/csv', size: 2048 };

/** Signed in before the card mounts, as in a chat: its file token comes at once. */
async function signedIn(ui: React.ReactElement) {
  const backend = createFakeBackend({ users: [ann] });
  const rendered = renderWithConfab(<></>, { backend });
  await act(() => rendered.client.login('ann', 'wonderland'));
  rendered.rerender(ui);
  return rendered;
}

describe('FileMessageCard', () => {
  it("shows the file's name, type and size with a tokened Download, and no Preview for a file the browser would not show", async () => {
    await signedIn(<FileMessageCard file={salesCsv} />);
    const card = screen.getByRole('region', { name: 'File sales.csv' });
    expect(within(card).getByText('sales.csv')).toBeInTheDocument();
    expect(within(card).getByText('CSV · 2.0 KB')).toBeInTheDocument();
    const download = await within(card).findByRole('link', { name: 'Download sales.csv' });
    expect(download.getAttribute('href')).toMatch(/^http:\/\/confab\.test\/api\/files\/files\/file00000000001\/sales_abcdefghij\.csv\?token=[^&]+&download=1$/);
    expect(within(card).queryByRole('link', { name: /^Preview/ })).not.toBeInTheDocument();
  });

  it('plays audio in the card and previews it', async () => {
    await signedIn(<FileMessageCard file={{ ...salesCsv, name: 'standup.mp3', file: 'standup_abcdefghij.mp3', type: 'audio/mpeg' }} />);
    const player = await screen.findByLabelText('Audio player for standup.mp3');
    expect(player.tagName).toBe('AUDIO');
    expect(player.getAttribute('src')).toMatch(/\/standup_abcdefghij\.mp3\?token=/);
    expect(screen.getByRole('link', { name: 'Preview standup.mp3' })).toHaveAttribute('target', '_blank');
  });

  it('shows an image the server allows inline, named by its file name; never an SVG', async () => {
    const { unmount } = await signedIn(<FileMessageCard file={{ ...salesCsv, name: 'chart.png', file: 'chart_abcdefghij.png', type: 'image/png' }} />);
    expect(await screen.findByRole('img', { name: 'chart.png' })).toHaveAttribute('src', expect.stringMatching(/\/chart_abcdefghij\.png\?token=/));
    expect(screen.getByText('PNG image · 2.0 KB')).toBeInTheDocument();
    unmount();
    await signedIn(<FileMessageCard file={{ ...salesCsv, name: 'logo.svg', file: 'logo_abcdefghij.svg', type: 'image/svg+xml' }} />);
    await screen.findByRole('link', { name: 'Download logo.svg' });
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Preview logo.svg' })).not.toBeInTheDocument();
  });

  it("says 'File deleted' once the file is gone, and offers nothing to open", async () => {
    await signedIn(<FileMessageCard file={{ ...salesCsv, deleted: true }} />);
    const card = screen.getByRole('region', { name: 'File sales.csv' });
    expect(within(card).getByText('File deleted')).toBeInTheDocument();
    expect(within(card).queryByRole('link')).not.toBeInTheDocument();
    expect(within(card).queryByRole('button')).not.toBeInTheDocument();
  });

  it('is what Message shows for a file message, under its author, loaded on demand', async () => {
    const message = clientMessage({ content: 'shared sales.csv', message_type: 'file', author_name: 'Ann', file: salesCsv });
    await signedIn(<Message message={message} />);
    const article = screen.getByRole('article', { name: 'Ann' });
    expect(await within(article).findByRole('region', { name: 'File sales.csv' })).toBeInTheDocument();
    expect(within(article).queryByText('shared sales.csv')).not.toBeInTheDocument();
  });
});
