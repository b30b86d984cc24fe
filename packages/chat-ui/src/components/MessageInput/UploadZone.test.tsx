import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { messages, type ChatFile, type UploadOptions } from '@confab/client';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend, errorResponse, json } from '@confab/client/testing/fakeBackend';
import { buildFileRecord } from '@confab/client/testing/fakeFiles';
import { UploadZone } from './UploadZone';

const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice Liddell', password: 'wonderland' };
const chatId = 'chat_design_001';

async function setup() {
  const backend = createFakeBackend({ users: [alice] });
  backend.addChat({ id: chatId, name: 'Design', participants: [alice.id] });
  const onUploaded = vi.fn<(file: ChatFile) => void>();
  const result = renderWithConfab(<UploadZone chatId={chatId} onUploaded={onUploaded} />, { backend });
  await act(() => result.client.login('alice', 'wonderland'));
  return { ...result, onUploaded, zone: screen.getByRole('region', { name: 'Upload zone' }), input: screen.getByLabelText('Choose files to upload') };
}

const uploadRequests = (backend: ReturnType<typeof createFakeBackend>) =>
  backend.requests.filter((request) => request.route === 'POST /api/collections/files/records');

const drop = (zone: HTMLElement, files: File[]) => fireEvent.drop(zone, { dataTransfer: { files, types: ['Files'] } });

describe('UploadZone', () => {
  it('uploads several chosen files, showing each one’s progress, then lists them as recently uploaded', async () => {
    const { backend, user, input, onUploaded } = await setup();
    const release = backend.hold();

    await user.upload(input, [new File(['# Notes'], 'notes.md', { type: 'text/markdown' }), new File(['ID3'], 'memo.mp3', { type: 'audio/mpeg' })]);

    const progress = screen.getByRole('progressbar', { name: 'Uploading notes.md' });
    expect(progress).toHaveAttribute('aria-valuenow', '0');
    expect(screen.getByRole('progressbar', { name: 'Uploading memo.mp3' })).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Uploading' })).getAllByText('0%')).toHaveLength(2);

    release();
    const recent = await screen.findByRole('list', { name: 'Recently uploaded' });
    await waitFor(() => expect(within(recent).getAllByRole('listitem')).toHaveLength(2));
    expect(within(recent).getByText('notes.md')).toBeInTheDocument();
    expect(within(recent).getByText('memo.mp3')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Recently uploaded' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(onUploaded).toHaveBeenCalledTimes(2);
    expect(backend.files.map((file) => file.original_name).sort()).toEqual(['memo.mp3', 'notes.md']);

    const sent = uploadRequests(backend).map((request) => request.body);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatchObject({ chat: chatId, uploaded_by: alice.id });
    expect((sent[0]?.['file'] as File).name).toBe('notes.md');
  });

  it('shows the live percentage reported by the client', async () => {
    const { client, input, user } = await setup();
    let finish: (file: ChatFile) => void = () => {};
    vi.spyOn(client.files, 'upload').mockImplementation((_chatId: string, _file: Blob, options?: UploadOptions) => {
      options?.onProgress?.(42);
      return new Promise<ChatFile>((resolve) => {
        finish = resolve;
      });
    });

    await user.upload(input, new File(['x'.repeat(100)], 'report.txt'));

    const progress = await screen.findByRole('progressbar', { name: 'Uploading report.txt' });
    expect(progress).toHaveAttribute('aria-valuenow', '42');
    expect(screen.getByText('42%')).toBeInTheDocument();
    act(() =>
      finish({ id: 'file1', chat: chatId, file: 'report_1.txt', original_name: 'report.txt', size: 100, mime_type: 'text/plain', description: '', uploaded_by: alice.id, created: '', updated: '' }),
    );
    expect(await screen.findByRole('list', { name: 'Recently uploaded' })).toHaveTextContent('report.txt');
  });

  it('refuses unsupported and too large files with the exact texts, and still uploads the good one', async () => {
    const { backend, zone } = await setup();
    const big = Object.defineProperty(new File(['x'], 'big.csv'), 'size', { value: 100 * 1024 * 1024 + 1 });

    drop(zone, [new File(['MZ'], 'setup.exe'), big, new File(['ok'], 'fine.txt')]);

    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((alert) => alert.textContent)).toEqual([messages.unsupportedFileFormat('.exe'), 'File big.csv is too large. Maximum size is 100MB.']);
    expect(await screen.findByRole('list', { name: 'Recently uploaded' })).toHaveTextContent('fine.txt');
    expect(uploadRequests(backend).map((request) => (request.body['file'] as File).name)).toEqual(['fine.txt']);
  });

  it("shows the server's reason when the upload is refused, and lets the error be dismissed", async () => {
    const { backend, input, user } = await setup();
    backend.override('POST /api/collections/files/records', () => errorResponse(400, 'The file content does not match its .pdf extension.'));

    await user.upload(input, new File(['<html>'], 'report.pdf'));

    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to upload report.pdf: The file content does not match its .pdf extension.');
    await user.click(screen.getByRole('button', { name: 'Dismiss the error for report.pdf' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('offers Retry after a network or server failure, which sends the same file again', async () => {
    const { backend, input, user } = await setup();
    let attempts = 0;
    backend.override('POST /api/collections/files/records', () => {
      attempts += 1;
      return attempts === 1
        ? errorResponse(503, 'Service unavailable.')
        : json(200, buildFileRecord({ chat: chatId, uploaded_by: alice.id, original_name: 'table.csv', size: 3 }));
    });

    await user.upload(input, new File(['a,b'], 'table.csv'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to upload table.csv: Service unavailable.');
    await user.click(screen.getByRole('button', { name: 'Retry uploading table.csv' }));

    expect(await screen.findByRole('list', { name: 'Recently uploaded' })).toHaveTextContent('table.csv');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(attempts).toBe(2);
  });

  it('offers no Retry for a file the server refused', async () => {
    const { backend, input, user } = await setup();
    backend.override('POST /api/collections/files/records', () => errorResponse(400, 'The file content does not match its .pdf extension.'));
    await user.upload(input, new File(['<html>'], 'report.pdf'));
    await screen.findByRole('alert');
    expect(screen.queryByRole('button', { name: 'Retry uploading report.pdf' })).not.toBeInTheDocument();
  });

  it('highlights the zone while files are dragged over it', async () => {
    const { zone } = await setup();
    const dataTransfer = { types: ['Files'], files: [] };
    fireEvent.dragEnter(zone, { dataTransfer });
    expect(zone).toHaveClass('cf-upload-zone--dragging');
    expect(zone).toHaveTextContent('Drop the files to upload them');
    fireEvent.dragLeave(zone, { dataTransfer });
    expect(zone).not.toHaveClass('cf-upload-zone--dragging');
  });

  it('opens the file picker from the Choose Files button', async () => {
    const { user, input } = await setup();
    const click = vi.spyOn(input, 'click');
    await user.click(screen.getByRole('button', { name: 'Choose Files' }));
    expect(click).toHaveBeenCalledOnce();
    expect(input).toHaveAttribute('multiple');
    expect(input).toHaveAttribute('type', 'file');
  });
});
