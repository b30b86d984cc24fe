import type { ReactNode } from 'react';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@confab/client';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend, errorResponse, json, type FakeBackend } from '@confab/client/testing/fakeBackend';
import { buildFileRecord } from '@confab/client/testing/fakeFiles';
import { useConfabStore } from '../../provider/hooks';
import { ChatFilesPanel } from './ChatFilesPanel';

const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice Liddell', password: 'wonderland' };
const bob = { id: 'user_bob_000001', username: 'bob', email: 'bob@example.com', name: 'Bob Builder', password: 'builder123' };
const chatId = 'chat_design_001';
const listRoute = 'GET /api/collections/files/records';

afterEach(() => vi.restoreAllMocks());

/** The panel loads on mount, as it does when ChatPage opens it for a signed-in user. */
function WhenSignedIn({ children }: { children: ReactNode }) {
  const user = useConfabStore((state) => state.user);
  return user === null ? null : children;
}

async function openPanel(seed: (backend: FakeBackend) => void = () => {}, refreshKey = 0) {
  const backend = createFakeBackend({ users: [alice, bob] });
  backend.addChat({ id: chatId, name: 'Design', participants: [alice.id, bob.id] });
  seed(backend);
  const onClose = vi.fn();
  const panel = (key: number) => (
    <WhenSignedIn>
      <ChatFilesPanel chatId={chatId} onClose={onClose} refreshKey={key} />
    </WhenSignedIn>
  );
  const result = renderWithConfab(panel(refreshKey), { backend });
  await act(() => result.client.login('alice', 'wonderland'));
  const dialog = screen.getByRole('dialog', { name: 'Chat files' });
  return { ...result, onClose, dialog, rerenderWithKey: (key: number) => result.rerender(panel(key)) };
}

const addFiles = (backend: FakeBackend, count: number, uploader = alice.id, extension = 'txt') =>
  Array.from({ length: count }, (_, index) => backend.addFile({ chat: chatId, uploaded_by: uploader, original_name: `file ${index + 1}.${extension}` }));

const fileItems = () => within(screen.getByRole('list', { name: 'Files' })).getAllByRole('listitem');

describe('ChatFilesPanel', () => {
  it('is a dialog that takes focus and shows a spinner while loading', async () => {
    const { dialog } = await openPanel((backend) => backend.override(listRoute, () => new Promise<Response>(() => {})));
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(within(dialog).getByRole('status')).toHaveTextContent('Loading files...');
    expect(screen.getByRole('searchbox', { name: 'Search files' })).toHaveFocus();
  });

  it('shows the error with a Retry that loads again', async () => {
    let failing = true;
    const { user } = await openPanel((backend) =>
      backend.override(listRoute, () => {
        if (failing) return errorResponse(500, 'Database unavailable.');
        const file = buildFileRecord({ chat: chatId, uploaded_by: alice.id, original_name: 'recovered.pdf' });
        return json(200, { page: 1, perPage: 100, totalItems: 1, totalPages: 1, items: [file] });
      }),
    );
    expect(await screen.findByText(messages.loadFilesFailed)).toBeInTheDocument();
    failing = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('button', { name: 'recovered.pdf' })).toBeInTheDocument();
  });

  it('says so when the chat has no files', async () => {
    await openPanel();
    expect(await screen.findByText('No files have been uploaded to this chat yet.')).toBeInTheDocument();
  });

  it('asks for the newest 100 files with their uploaders', async () => {
    const { backend } = await openPanel((backend) => addFiles(backend, 1));
    await screen.findByRole('list', { name: 'Files' });
    expect(backend.requests.filter((request) => request.route === listRoute)).toHaveLength(1);
  });

  it('shows name, size, uploader and time ago; the search filters by name', async () => {
    const fiveMinutesAgo = new Date(Date.now() - 5 * 60_000).toISOString().replace('T', ' ');
    const { user } = await openPanel((backend) => {
      backend.addFile({ chat: chatId, uploaded_by: bob.id, original_name: 'Budget 2026.xlsx', size: 1536, created: fiveMinutesAgo });
      backend.addFile({ chat: chatId, uploaded_by: alice.id, original_name: 'notes.md', size: 300 });
    });
    await screen.findByRole('list', { name: 'Files' });
    const budget = fileItems().find((item) => item.textContent?.includes('Budget 2026.xlsx'));
    expect(budget).toHaveTextContent('1.5 KB');
    expect(budget).toHaveTextContent('Bob Builder');
    expect(budget).toHaveTextContent('5m ago');

    await user.type(screen.getByRole('searchbox', { name: 'Search files' }), 'budget');
    expect(fileItems()).toHaveLength(1);
    await user.type(screen.getByRole('searchbox', { name: 'Search files' }), 'zzz');
    expect(screen.getByText('No files match your search. Try a different query.')).toBeInTheDocument();
  });

  it('renders names as text, never as markup', async () => {
    await openPanel((backend) => backend.addFile({ chat: chatId, uploaded_by: bob.id, original_name: '<img src=x onerror=alert(1)>.txt' }));
    expect(await screen.findByRole('button', { name: '<img src=x onerror=alert(1)>.txt' })).toBeInTheDocument();
    expect(document.querySelector('img')).toBeNull();
  });

  it('switches between list and grid views', async () => {
    const { user } = await openPanel((backend) => addFiles(backend, 2));
    const list = await screen.findByRole('list', { name: 'Files' });
    expect(screen.getByRole('button', { name: 'List view' })).toHaveAttribute('aria-pressed', 'true');
    expect(list).toHaveClass('cf-files--list');
    await user.click(screen.getByRole('button', { name: 'Grid view' }));
    expect(screen.getByRole('button', { name: 'Grid view' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'List view' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('list', { name: 'Files' })).toHaveClass('cf-files--grid');
  });

  it('pages 10 files at a time', async () => {
    const { user } = await openPanel((backend) => addFiles(backend, 23));
    await screen.findByRole('list', { name: 'Files' });
    expect(fileItems()).toHaveLength(10);
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    // Newest first: the last one added leads.
    expect(fileItems()[0]).toHaveTextContent('file 23.txt');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    expect(fileItems()[0]).toHaveTextContent('file 13.txt');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(fileItems()).toHaveLength(3);
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();

    await user.type(screen.getByRole('searchbox', { name: 'Search files' }), 'file 1');
    // 'file 1' and 'file 10'–'file 19': 11 matches, back on page 1.
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
  });

  it('deletes the selected files; a partial failure gets the spec text and the list refreshes', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { user, backend } = await openPanel((backend) => {
      addFiles(backend, 3, alice.id);
      backend.addFile({ chat: chatId, uploaded_by: bob.id, original_name: 'bobs.pdf' });
    });
    await screen.findByRole('list', { name: 'Files' });

    await user.click(screen.getByRole('button', { name: 'Select' }));
    expect(screen.getByRole('button', { name: 'Delete selected (0)' })).toBeDisabled();
    // Only the caller's own files can be selected; someone else's has no box.
    expect(screen.queryByRole('checkbox', { name: 'Select bobs.pdf' })).not.toBeInTheDocument();
    // The third one cannot be deleted when the request arrives (a race): the permission text of
    // docs/PRODUCT.md §8 stays for it.
    const third = backend.files.find((file) => file.original_name === 'file 3.txt');
    if (third) backend.deleteOutcomes.set(third.id, 404);
    for (const name of ['file 1.txt', 'file 2.txt', 'file 3.txt']) await user.click(screen.getByRole('checkbox', { name: `Select ${name}` }));
    await user.click(screen.getByRole('button', { name: 'Delete selected (3)' }));

    expect(confirm).toHaveBeenCalledWith(messages.deleteFilesConfirmation(3));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      // The spec text, with the count of one in agreement.
      'Deleted 2 files successfully. 1 file could not be deleted (you may not have permission to delete files uploaded by others).',
    );
    await waitFor(() => expect(fileItems()).toHaveLength(2));
    expect(fileItems().map((item) => within(item).getAllByRole('button')[0]?.textContent).sort()).toEqual(['bobs.pdf', 'file 3.txt']);
  });

  it("offers no selection when every file is someone else's", async () => {
    await openPanel((backend) => backend.addFile({ chat: chatId, uploaded_by: bob.id, original_name: 'bobs.pdf' }));
    await screen.findByRole('list', { name: 'Files' });
    expect(screen.getByRole('button', { name: 'Select' })).toBeDisabled();
  });

  it('reports a bulk delete that deleted nothing, and leaves select mode when everything went', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { user, backend } = await openPanel((backend) => addFiles(backend, 2, alice.id));
    await screen.findByRole('list', { name: 'Files' });
    for (const file of backend.files) backend.deleteOutcomes.set(file.id, 500);

    await user.click(screen.getByRole('button', { name: 'Select' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select file 1.txt' }));
    await user.click(screen.getByRole('button', { name: 'Delete selected (1)' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.deleteFilesFailed);

    backend.deleteOutcomes.clear();
    await user.click(screen.getByRole('button', { name: 'Delete selected (1)' }));
    await waitFor(() => expect(fileItems()).toHaveLength(1));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Select' })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it("offers Delete only on the caller's own files, asks first, and shows the permission text when the server refuses", async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { user, backend } = await openPanel((backend) => {
      backend.addFile({ chat: chatId, uploaded_by: bob.id, original_name: 'bobs.pdf' });
      backend.addFile({ chat: chatId, uploaded_by: alice.id, original_name: 'mine.txt' });
    });
    await screen.findByRole('list', { name: 'Files' });
    // docs/PRODUCT.md §6: users delete only files they uploaded, so Bob's file offers Download but
    // no Delete.
    const bobs = fileItems().find((item) => within(item).queryByRole('button', { name: 'bobs.pdf' }) !== null)!;
    expect(within(bobs).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete bobs.pdf' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete mine.txt' }));
    expect(confirm).toHaveBeenCalledWith(messages.deleteFileConfirmation('mine.txt'));
    expect(backend.requests.some((request) => request.route.startsWith('DELETE'))).toBe(false);

    // A refusal that still happens (e.g. the file changed hands or went meanwhile) keeps the
    // permission text.
    confirm.mockReturnValue(true);
    const mine = backend.files.find((file) => file.original_name === 'mine.txt');
    if (mine) backend.deleteOutcomes.set(mine.id, 404);
    await user.click(screen.getByRole('button', { name: 'Delete mine.txt' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.deleteFileNotPermitted);

    backend.deleteOutcomes.clear();
    await user.click(screen.getByRole('button', { name: 'Delete mine.txt' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'mine.txt' })).not.toBeInTheDocument());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("shows 'Failed to delete file' for other failures", async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { user } = await openPanel((backend) => {
      const [file] = addFiles(backend, 1);
      if (file) backend.deleteOutcomes.set(file.id, 500);
    });
    await user.click(await screen.findByRole('button', { name: 'Delete file 1.txt' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.deleteFileFailed);
  });

  it('previews an audio file with a player on the tokened URL; Escape closes only the preview', async () => {
    const { user } = await openPanel((backend) => backend.addFile({ chat: chatId, uploaded_by: bob.id, original_name: 'memo.mp3', size: 2048 }));
    const file = await screen.findByRole('button', { name: 'memo.mp3' });
    await waitFor(() => expect(screen.getByRole('link', { name: 'Download memo.mp3' })).toBeInTheDocument());

    await user.click(file);
    const preview = screen.getByRole('dialog', { name: 'memo.mp3' });
    const player = within(preview).getByLabelText('Audio player for memo.mp3');
    expect(player.tagName).toBe('AUDIO');
    expect(player).toHaveAttribute('controls');
    expect(player.getAttribute('src')).toMatch(/^http:\/\/confab\.test\/api\/files\/files\/file\w+\/memo_\w+\.mp3\?token=filetoken1$/);
    expect(within(preview).getByText('2.0 KB')).toBeInTheDocument();
    expect(within(preview).getByText('Bob Builder')).toBeInTheDocument();

    // The token is still the same one: the failure is real and is shown.
    fireEvent.error(player);
    expect(await within(preview).findByRole('alert')).toHaveTextContent('Failed to play audio file');

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'memo.mp3' })).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Chat files' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'memo.mp3' })).toHaveFocus();
  });

  it('renews an expired token under a playing audio file and goes on from the same moment', async () => {
    const { user, client } = await openPanel((backend) => backend.addFile({ chat: chatId, uploaded_by: bob.id, original_name: 'talk.mp3', size: 4096 }));
    await waitFor(() => expect(screen.getByRole('link', { name: 'Download talk.mp3' })).toBeInTheDocument());
    await user.click(await screen.findByRole('button', { name: 'talk.mp3' }));
    const player = screen.getByLabelText('Audio player for talk.mp3') as HTMLAudioElement;
    expect(player.getAttribute('src')).toMatch(/\?token=filetoken1$/);
    const play = vi.spyOn(player, 'play').mockResolvedValue(undefined);
    fireEvent.play(player);
    player.currentTime = 95;
    vi.spyOn(client.files, 'fileToken').mockResolvedValue('fresh-token');

    // A range request with the old token failed: the player gets the fresh one, no alert.
    fireEvent.error(player);
    await waitFor(() => expect(player.getAttribute('src')).toMatch(/\?token=fresh-token$/));
    fireEvent.loadedMetadata(player);
    expect(player.currentTime).toBe(95);
    expect(play).toHaveBeenCalled();
    expect(screen.queryByText('Failed to play audio file')).not.toBeInTheDocument();

    // A failure with the fresh token is real.
    fireEvent.error(player);
    expect(await screen.findByText('Failed to play audio file')).toBeInTheDocument();
  });

  it('previews other files with their details and Download', async () => {
    const { user } = await openPanel((backend) =>
      backend.addFile({ chat: chatId, uploaded_by: alice.id, original_name: 'plan.pdf', description: 'The Q3 plan' }),
    );
    await user.click(await screen.findByRole('button', { name: 'plan.pdf' }));
    const preview = screen.getByRole('dialog', { name: 'plan.pdf' });
    expect(preview.querySelector('audio')).toBeNull();
    expect(preview).toHaveTextContent('The Q3 plan');
    expect(preview).toHaveTextContent('application/pdf');
    await waitFor(() => expect(within(preview).getByRole('link', { name: 'Download plan.pdf' })).toBeInTheDocument());
    await user.click(within(preview).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog', { name: 'plan.pdf' })).not.toBeInTheDocument();
  });

  it('downloads through a link carrying download=1 and the file token', async () => {
    const { backend } = await openPanel((backend) => addFiles(backend, 1));
    const link = await screen.findByRole('link', { name: 'Download file 1.txt' });
    const href = new URL(link.getAttribute('href') ?? '');
    expect(href.pathname).toBe(`/api/files/files/${backend.files[0]?.id}/${backend.files[0]?.file}`);
    expect(href.searchParams.get('download')).toBe('1');
    expect(href.searchParams.get('token')).toBe('filetoken1');
    expect(link).toHaveAttribute('download', 'file 1.txt');
  });

  it("shows 'Failed to download file' when no file token can be had", async () => {
    const { user } = await openPanel((backend) => {
      backend.override('POST /api/files/token', () => errorResponse(500, 'Token service down.'));
      addFiles(backend, 1);
    });
    const download = await screen.findByRole('button', { name: 'Download file 1.txt' });
    await user.click(download);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to download file');
    expect(screen.getByRole('button', { name: 'Open Live Website' })).toBeDisabled();
  });

  it('offers the live website only once the chat has an index.html', async () => {
    await openPanel((backend) => addFiles(backend, 2));
    await screen.findByRole('button', { name: 'file 1.txt' });
    const disabled = screen.getByRole('button', { name: 'Open Live Website' });
    expect(disabled).toBeDisabled();
    expect(disabled).toHaveAttribute('title', "Upload an index.html to publish this chat's live website.");
    expect(screen.queryByRole('link', { name: 'Open Live Website' })).not.toBeInTheDocument();
  });

  it('links the live website with the file token, in a new tab without an opener', async () => {
    await openPanel((backend) => backend.addFile({ chat: chatId, uploaded_by: alice.id, original_name: 'index.html' }));
    const link = await screen.findByRole('link', { name: 'Open Live Website' });
    expect(link).toHaveAttribute('href', `http://confab.test/live/${chatId}/?token=filetoken1`);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('closes with Escape or the Close button', async () => {
    const { user, onClose } = await openPanel();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('keeps Tab inside the dialog', async () => {
    const { user } = await openPanel((backend) => backend.addFile({ chat: chatId, uploaded_by: alice.id, original_name: 'index.html' }));
    await screen.findByRole('link', { name: 'Open Live Website' });
    screen.getByRole('button', { name: 'Close' }).focus();
    await user.tab({ shift: true });
    expect(screen.getByRole('link', { name: 'Open Live Website' })).toHaveFocus();
    // From the first control, Shift+Tab wraps round to the last one: the file's Delete button.
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Delete index.html' })).toHaveFocus();
  });

  it('loads again when refreshKey changes (e.g. after an upload)', async () => {
    const { backend, rerenderWithKey } = await openPanel();
    await screen.findByText(messages.noFilesUploaded);
    backend.addFile({ chat: chatId, uploaded_by: alice.id, original_name: 'fresh.csv' });
    rerenderWithKey(1);
    expect(await screen.findByRole('button', { name: 'fresh.csv' })).toBeInTheDocument();
  });
});
