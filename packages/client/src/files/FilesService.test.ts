import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfabClient } from '../client/ConfabClient';
import { ConfabError } from '../errors';
import { errorResponse } from '../testing/fakeHttp';
import { startFakeServer } from '../testing/fakeServer';
import type { FakeServer, RecordedRequest, UploadedPart } from '../testing/fakeServer';
import { messages } from '../validation/messages';
import { fileDisplayName, fileUploaderName } from './chatFile';
import { fileTokenLifetimeMs, fileTokenRefreshMarginMs } from './FilesService';

const alice = 'alice0000000001';
const bob = 'bob000000000001';
const megabyte = 1024 * 1024;

let server: FakeServer;
let client: ConfabClient;

beforeEach(async () => {
  server = await startFakeServer();
  server.users.push({ id: bob, username: 'bob', email: 'bob@example.com', name: '', password: 'builder-bob' });
  server.addChat({ id: 'chat_launch_001', participants: [alice, bob] });
  server.addChat({ id: 'chat_private_01', participants: [bob] });
  client = new ConfabClient({ baseUrl: server.url, realtime: { autoConnect: false } });
  await client.login('alice', 'correct-horse');
});

afterEach(async () => {
  vi.useRealTimers();
  client.logout();
  await server.close();
});

const requestsTo = (method: string, pathStart: string): RecordedRequest[] =>
  server.requests.filter((request) => request.method === method && request.path.startsWith(pathStart));
const uploads = () => requestsTo('POST', '/api/collections/files/records');
const textFile = (name: string, text = 'hello') => new File([text], name, { type: 'text/plain' });

describe('files.list', () => {
  it("asks for the chat's files, uploader expanded, newest first, 100 at most", async () => {
    server.addFile({ chat: 'chat_launch_001', uploaded_by: alice, original_name: 'first.pdf', size: 10 });
    server.addFile({ chat: 'chat_launch_001', uploaded_by: bob, original_name: 'second.md', size: 20 });
    server.addFile({ chat: 'chat_private_01', uploaded_by: bob, original_name: 'secret.txt', size: 30 });

    const files = await client.files.list('chat_launch_001');

    const query = new URL(requestsTo('GET', '/api/collections/files/records')[0]?.path ?? '', server.url).searchParams;
    expect(query.get('filter')).toBe('chat = "chat_launch_001"');
    expect(query.get('expand')).toBe('uploaded_by');
    expect(query.get('sort')).toBe('-created');
    expect(query.get('page')).toBe('1');
    expect(query.get('perPage')).toBe('100');
    expect(files.map(fileDisplayName)).toEqual(['second.md', 'first.pdf']);
    expect(files[0]?.expand?.uploaded_by?.username).toBe('bob');
  });

  it('rejects with a ConfabError when the server cannot be reached', async () => {
    const offline = new ConfabClient({ baseUrl: server.url, realtime: { autoConnect: false }, fetch: () => Promise.reject(new TypeError('fetch failed')) });
    await expect(offline.files.list('chat_launch_001')).rejects.toMatchObject({
      status: 0,
      isNetworkFailure: true,
      message: `Cannot reach the Confab server at ${server.url} — is this site's origin in CONFAB_ALLOWED_ORIGINS?`,
    });
    await expect(offline.files.list('chat_launch_001')).rejects.toBeInstanceOf(ConfabError);
  });
});

describe('files.upload', () => {
  it('sends the file, chat, uploader and description as multipart with the bearer token (fetch path)', async () => {
    const progress: number[] = [];
    const file = await client.files.upload('chat_launch_001', textFile('Meeting notes.md', '# Notes'), {
      description: '  Minutes  ',
      onProgress: (percent) => progress.push(percent),
    });

    const request = uploads()[0];
    expect(request?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(request?.headers['authorization']).toMatch(/^Bearer /);
    const body = request?.body as Record<string, string | UploadedPart>;
    expect(body['file']).toMatchObject({ name: 'Meeting notes.md', size: 7, text: '# Notes' });
    expect(body['chat']).toBe('chat_launch_001');
    expect(body['uploaded_by']).toBe(alice);
    expect(body['description']).toBe('Minutes');
    // Node has no XMLHttpRequest: fetch, whose only report is 100 at the end.
    expect(progress).toEqual([100]);
    expect(file).toMatchObject({ chat: 'chat_launch_001', uploaded_by: alice, original_name: 'Meeting notes.md', size: 7, mime_type: 'text/markdown' });
    expect(file.file).toMatch(/^meeting_notes_[0-9]{10}\.md$/);
    expect(fileDisplayName(file)).toBe('Meeting notes.md');
  });

  it('accepts audio files', async () => {
    await expect(client.files.upload('chat_launch_001', new File(['ID3'], 'voice memo.m4a'))).resolves.toMatchObject({ mime_type: 'audio/mp4' });
  });

  it('reports real progress percentages through XMLHttpRequest when there is one', async () => {
    FakeXMLHttpRequest.progressSteps = [[0, 200], [51, 200], [100, 200], [199.9, 200]];
    const xhrClient = new ConfabClient({ baseUrl: server.url, realtime: { autoConnect: false }, XMLHttpRequest: FakeXMLHttpRequest as unknown as typeof XMLHttpRequest });
    await xhrClient.login('alice', 'correct-horse');
    const progress: number[] = [];

    const file = await xhrClient.files.upload('chat_launch_001', textFile('plan.txt'), { onProgress: (percent) => progress.push(percent) });

    expect(progress).toEqual([0, 25, 50, 99, 100]);
    expect(file.original_name).toBe('plan.txt');
    expect(FakeXMLHttpRequest.lastHeaders['Authorization']).toMatch(/^Bearer /);
    expect((uploads()[0]?.body as Record<string, UploadedPart>)['file']?.name).toBe('plan.txt');
  });

  it('rejects an unsupported extension or more than 100 MB with the exact text, sending nothing', async () => {
    await expect(client.files.upload('chat_launch_001', textFile('setup.exe'))).rejects.toMatchObject({
      status: 400,
      message: messages.unsupportedFileFormat('.exe'),
    });
    const big = Object.defineProperty(textFile('big.csv'), 'size', { value: 100 * megabyte + 1 });
    await expect(client.files.upload('chat_launch_001', big)).rejects.toMatchObject({ message: 'File big.csv is too large. Maximum size is 100MB.' });
    expect(uploads()).toHaveLength(0);
  });

  it("rejects with the server's message when the server refuses the file", async () => {
    await expect(client.files.upload('chat_private_01', textFile('notes.txt'))).rejects.toMatchObject({ status: 400, message: 'Failed to create record.' });
    // Content sniffing is the real server's rule (tested there): the fake is told to refuse.
    const refusal = 'The file content does not match its .pdf extension.';
    server.backend.override('POST /api/collections/files/records', () =>
      errorResponse(400, refusal, { file: { code: 'validation_invalid_file_content', message: refusal } }),
    );
    const disguised = new File(['<html><script>alert(1)</script></html>'], 'report.pdf');
    await expect(client.files.upload('chat_launch_001', disguised)).rejects.toMatchObject({
      status: 400,
      message: 'The file content does not match its .pdf extension.',
      fieldErrors: { file: { code: 'validation_invalid_file_content' } },
    });
  });

  it('needs a signed-in user, and can be aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(client.files.upload('chat_launch_001', textFile('notes.txt'), { signal: controller.signal })).rejects.toMatchObject({ isAbort: true });
    client.logout();
    await expect(client.files.upload('chat_launch_001', textFile('notes.txt'))).rejects.toMatchObject({ status: 401, message: 'User not authenticated' });
    expect(uploads()).toHaveLength(0);
  });
});

describe('files.remove and removeMany', () => {
  it("deletes the caller's own file; someone else's answers 404 with the permission text", async () => {
    const own = server.addFile({ chat: 'chat_launch_001', uploaded_by: alice, original_name: 'mine.txt' });
    const others = server.addFile({ chat: 'chat_launch_001', uploaded_by: bob, original_name: 'bobs.txt' });

    await client.files.remove(own.id);
    expect(server.backend.files.map((file) => file.id)).toEqual([others.id]);
    const refusal = client.files.remove(others.id);
    await expect(refusal).rejects.toBeInstanceOf(ConfabError);
    await expect(refusal).rejects.toMatchObject({ status: 404, message: messages.deleteFileNotPermitted });
  });

  it("keeps other failures' status and server message", async () => {
    const own = server.addFile({ chat: 'chat_launch_001', uploaded_by: alice, original_name: 'mine.txt' });
    server.backend.override(`DELETE /api/collections/files/records/${own.id}`, () => errorResponse(500, 'Something went wrong while deleting.'));
    await expect(client.files.remove(own.id)).rejects.toMatchObject({ status: 500, message: 'Something went wrong while deleting.' });
  });

  it('deletes what it can and lists each failure with its status', async () => {
    const first = server.addFile({ chat: 'chat_launch_001', uploaded_by: alice, original_name: 'a.txt' });
    const second = server.addFile({ chat: 'chat_launch_001', uploaded_by: alice, original_name: 'b.txt' });
    const bobs = server.addFile({ chat: 'chat_launch_001', uploaded_by: bob, original_name: 'c.txt' });
    const broken = server.addFile({ chat: 'chat_launch_001', uploaded_by: alice, original_name: 'd.txt' });
    server.backend.override(`DELETE /api/collections/files/records/${broken.id}`, () => errorResponse(500, 'Something went wrong while deleting.'));

    const result = await client.files.removeMany([first.id, bobs.id, second.id, broken.id, first.id]);

    expect(result).toEqual({
      deleted: [first.id, second.id],
      failed: [
        { id: bobs.id, status: 404 },
        { id: broken.id, status: 500 },
      ],
    });
    expect(server.backend.files.map((file) => file.id)).toEqual([bobs.id, broken.id]);
  });
});

describe('files.fileToken', () => {
  const tokenRequests = () => requestsTo('POST', '/api/files/token');

  it('is cached until 30 s before its 180 s expiry, and shared by concurrent callers', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const [first, concurrent] = await Promise.all([client.files.fileToken(), client.files.fileToken()]);
    expect(first).toBe('filetoken1');
    expect(concurrent).toBe('filetoken1');
    expect(tokenRequests()).toHaveLength(1);
    expect(tokenRequests()[0]?.headers['authorization']).toMatch(/^Bearer /);

    vi.advanceTimersByTime(fileTokenLifetimeMs - fileTokenRefreshMarginMs - 1000);
    await expect(client.files.fileToken()).resolves.toBe('filetoken1');
    vi.advanceTimersByTime(2000);
    await expect(client.files.fileToken()).resolves.toBe('filetoken2');
    expect(tokenRequests()).toHaveLength(2);
  });

  it('is not reused by another session', async () => {
    await expect(client.files.fileToken()).resolves.toBe('filetoken1');
    client.logout();
    await client.login('bob', 'builder-bob');
    await expect(client.files.fileToken()).resolves.toBe('filetoken2');
  });

  it('rejects with a ConfabError when signed out', async () => {
    client.logout();
    await expect(client.files.fileToken()).rejects.toMatchObject({ status: 401 });
  });
});

describe('file links', () => {
  const file = { id: 'file_0001', file: 'q3 report_ab12cd34ef.pdf' };

  it('builds file URLs with the token and the download flag', () => {
    expect(client.files.fileUrl(file)).toBe(`${server.url}/api/files/files/file_0001/q3%20report_ab12cd34ef.pdf`);
    expect(client.files.fileUrl(file, { token: 'tok&1' })).toBe(`${server.url}/api/files/files/file_0001/q3%20report_ab12cd34ef.pdf?token=tok%261`);
    expect(client.files.fileUrl(file, { token: 'tok', download: true })).toBe(
      `${server.url}/api/files/files/file_0001/q3%20report_ab12cd34ef.pdf?token=tok&download=1`,
    );
  });

  it('builds the live website URL', () => {
    expect(client.files.liveSiteUrl('chat_launch_001', 'tok/1')).toBe(`${server.url}/live/chat_launch_001/?token=tok%2F1`);
  });

  it('names files and uploaders for display', () => {
    const record = { original_name: '', file: 'stored_1234567890.txt', expand: { uploaded_by: { id: bob, username: 'bob', name: '' } } };
    expect(fileDisplayName(record)).toBe('stored_1234567890.txt');
    expect(fileDisplayName({ ...record, original_name: 'Notes.txt' })).toBe('Notes.txt');
    expect(fileUploaderName(record)).toBe('bob');
    expect(fileUploaderName({ expand: { uploaded_by: { id: bob, username: 'bob', name: 'Bob Builder' } } })).toBe('Bob Builder');
    expect(fileUploaderName({})).toBe('');
  });
});

/**
 * Just enough of XMLHttpRequest for the upload transport: it fires the configured upload
 * progress events, then really sends the request with fetch and reports the answer.
 */
class FakeXMLHttpRequest {
  static progressSteps: Array<[loaded: number, total: number]> = [];
  static lastHeaders: Record<string, string> = {};
  readonly upload = new EventTarget();
  status = 0;
  statusText = '';
  responseText = '';
  private readonly events = new EventTarget();
  private method = 'GET';
  private url = '';
  private readonly headers: Record<string, string> = {};

  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string): void {
    this.headers[name] = value;
  }

  addEventListener(type: string, listener: EventListener): void {
    this.events.addEventListener(type, listener);
  }

  abort(): void {
    this.events.dispatchEvent(new Event('abort'));
  }

  send(body: FormData): void {
    FakeXMLHttpRequest.lastHeaders = { ...this.headers };
    for (const [loaded, total] of FakeXMLHttpRequest.progressSteps) {
      this.upload.dispatchEvent(Object.assign(new Event('progress'), { lengthComputable: true, loaded, total }));
    }
    fetch(this.url, { method: this.method, headers: this.headers, body }).then(
      async (response) => {
        this.status = response.status;
        this.statusText = response.statusText;
        this.responseText = await response.text();
        this.events.dispatchEvent(new Event('load'));
      },
      () => this.events.dispatchEvent(new Event('error')),
    );
  }
}
