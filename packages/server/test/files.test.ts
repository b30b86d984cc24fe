/**
 * Files (docs/CONTRACTS.md, Files), server side: uploads (streamed, limited, checked), file records
 * and their rules, safe serving with file tokens, and each chat's sandboxed live website. Runs on
 * SQLite and on PostgreSQL, each with the files on disk and in an S3-protocol bucket.
 */
import { existsSync, mkdirSync, readdirSync, statSync, watch } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { join, relative } from 'node:path';
import { messages } from '@confab/client/rules';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../src/http/redaction';
import { startTestBucket, type TestBucket } from './support/bucket';
import { databaseVariants } from './support/databases';
import { createChat, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';
import { authenticatedSocket } from './support/wsClient';

const variants = (await databaseVariants()).flatMap((variant) => (['disk', 's3'] as const).map((store) => ({ ...variant, store })));
const megabyte = 1024 * 1024;

interface Part {
  name: string;
  value: string | Buffer;
  /** Raw bytes of the filename parameter, exactly as sent (hostile names included). */
  filename?: string;
  contentType?: string;
  /** The whole Content-Disposition value instead of one built from name and filename. */
  disposition?: string;
}

/** A name's UTF-8 bytes as a latin1 string, so `multipart` sends them byte for byte. */
const utf8Bytes = (name: string) => Buffer.from(name, 'utf8').toString('latin1');

/** A multipart body built by hand, so file names reach the server byte for byte. */
function multipart(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----confabtest${Math.random().toString(36).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      part.disposition ?? (part.filename === undefined ? `form-data; name="${part.name}"` : `form-data; name="${part.name}"; filename="${part.filename}"`);
    const headers = [`--${boundary}`, `Content-Disposition: ${disposition}`];
    if (part.filename !== undefined || part.disposition !== undefined) headers.push(`Content-Type: ${part.contentType ?? 'application/octet-stream'}`);
    chunks.push(Buffer.from(`${headers.join('\r\n')}\r\n\r\n`, 'latin1'));
    chunks.push(typeof part.value === 'string' ? Buffer.from(part.value) : part.value);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Every file and folder under `root`, relative, with sizes: a before/after picture of the disk. */
function tree(root: string): string[] {
  const entries: string[] = [];
  if (!existsSync(root)) return entries;
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      const stats = statSync(path);
      if (stats.isDirectory()) {
        entries.push(`${relative(root, path)}/`);
        walk(path);
      } else {
        entries.push(`${relative(root, path)} ${stats.size}`);
      }
    }
  };
  walk(root);
  return entries.sort();
}

const pdfBytes = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const mp3Bytes = Buffer.concat([Buffer.from('ID3'), Buffer.from([4, 0, 0, 0, 0, 0, 0]), Buffer.alloc(2048, 0xff)]);

describe.each(variants)('files ($name, $store)', (variant) => {
  let testServer: TestServer;
  let bucket: TestBucket | undefined;
  let clockOffsetMs = 0;
  let alice: RegisteredUser;
  let bob: RegisteredUser;
  let mallory: RegisteredUser;
  let chatId: string;

  const bearer = (user: RegisteredUser) => `Bearer ${user.pb.authStore.token}`;

  async function upload(user: RegisteredUser | undefined, fileName: string, content: string | Buffer, fields: Record<string, string> = {}) {
    const { body, contentType } = multipart([
      { name: 'chat', value: fields['chat'] ?? chatId },
      ...Object.entries(fields)
        .filter(([key]) => key !== 'chat')
        .map(([name, value]) => ({ name, value })),
      { name: 'file', value: content, filename: fileName },
    ]);
    const response = await fetch(`${testServer.url}/api/collections/files/records`, {
      method: 'POST',
      headers: { 'content-type': contentType, ...(user === undefined ? {} : { authorization: bearer(user) }) },
      body: new Uint8Array(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as Record<string, unknown>, text };
  }

  async function fileToken(user: RegisteredUser): Promise<string> {
    const response = await rawRequest(testServer.url, 'POST', '/api/files/token', { token: bearer(user) });
    expect(response.status).toBe(200);
    return (response.body as { token: string }).token;
  }

  const filesRoot = () => join(testServer.dataDir, 'files');
  const incoming = () => join(filesRoot(), '.incoming');
  const incomingLeft = () => (existsSync(incoming()) ? readdirSync(incoming()) : []);
  /** The bucket's key prefix: each variant keeps its files under its own. */
  const prefix = `${variant.name}/`;

  /** `<key> <size>` of every stored file under `under`, on disk or in the bucket, sorted. */
  async function storedFiles(under = ''): Promise<string[]> {
    if (bucket === undefined) {
      return tree(filesRoot())
        .filter((entry) => !entry.endsWith('/') && !entry.startsWith('.incoming/') && entry.startsWith(under))
        .sort();
    }
    const answer = await bucket.client.send(new ListObjectsV2Command({ Bucket: bucket.bucket, Prefix: prefix + under }));
    return (answer.Contents ?? []).map((object) => `${(object.Key ?? '').slice(prefix.length)} ${object.Size}`).sort();
  }

  beforeAll(async () => {
    if (variant.store === 's3') bucket = await startTestBucket();
    testServer = await startTestServer(variant, { now: () => new Date(Date.now() + clockOffsetMs), ...bucket?.serverOptions(prefix) });
    alice = await registerUser(testServer, { name: 'Alice' });
    bob = await registerUser(testServer, { name: 'Bob' });
    mallory = await registerUser(testServer, { name: 'Mallory' });
    const chat = await createChat(alice, { name: 'Files', participants: [bob.record.id] });
    chatId = chat.id;
  });

  afterAll(async () => {
    await testServer?.close();
    await bucket?.close();
  });

  it('creates a record from a multipart upload: a generated stored name, the caller as uploader, bytes on disk', async () => {
    const created = await upload(alice, 'Quarterly Report (final).csv', 'quarter,revenue\nQ1,100\n', { description: 'numbers', uploaded_by: mallory.record.id });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      collectionName: 'files',
      chat: chatId,
      uploaded_by: alice.record.id,
      original_name: 'Quarterly Report (final).csv',
      mime_type: 'text/csv',
      size: 23,
      description: 'numbers',
    });
    expect(String(created.body['file'])).toMatch(/^quarterly_report_final_[a-z0-9]{10}\.csv$/);
    const key = `${chatId}/${String(created.body['id'])}/${String(created.body['file'])}`;
    expect(await storedFiles(`${chatId}/${String(created.body['id'])}/`)).toEqual([`${key} 23`]);
    expect(incomingLeft()).toEqual([]);

    const list = await bob.pb.collection('files').getList(1, 100, { filter: `chat='${chatId}'`, expand: 'uploaded_by', sort: '-created' });
    const listed = list.items.find((item) => item.id === created.body['id']);
    expect(listed?.['expand']?.['uploaded_by']?.['username']).toBe(alice.username);
  });

  it('speaks the pocketbase SDK: create from FormData, getToken, getURL', async () => {
    const form = new FormData();
    form.append('chat', chatId);
    form.append('description', 'through the SDK');
    form.append('file', new File(['id,name\n1,Ada\n'], 'people.csv', { type: 'text/csv' }));
    const record = await bob.pb.collection('files').create(form);
    expect(record).toMatchObject({ uploaded_by: bob.record.id, original_name: 'people.csv', description: 'through the SDK' });
    const token = await alice.pb.files.getToken();
    const url = alice.pb.files.getURL(record, String(record['file']), { token, download: true });
    expect(url).toContain(`/api/files/${record.collectionId}/${record.id}/`);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="people.csv"/);
    expect(await response.text()).toBe('id,name\n1,Ada\n');
  });

  it('keeps non-ASCII file names exactly, from FormData, raw UTF-8 and RFC 5987 filename*', async () => {
    const form = new FormData();
    form.append('chat', chatId);
    form.append('file', new File(['bonjour\n'], 'résumé.txt', { type: 'text/plain' }));
    expect((await bob.pb.collection('files').create(form))['original_name']).toBe('résumé.txt');

    for (const name of ['résumé.txt', '日本語.txt', '🎉 party.md']) {
      const raw = await upload(alice, utf8Bytes(name), 'hello\n');
      expect(raw.status, name).toBe(200);
      expect(raw.body['original_name']).toBe(name);
    }

    const { body, contentType } = multipart([
      { name: 'chat', value: chatId },
      { name: 'file', value: 'hello\n', disposition: `form-data; name="file"; filename*=UTF-8''${encodeURIComponent('résumé.txt')}` },
    ]);
    const extended = await fetch(`${testServer.url}/api/collections/files/records`, {
      method: 'POST',
      headers: { 'content-type': contentType, authorization: bearer(alice) },
      body: new Uint8Array(body),
    });
    expect(extended.status).toBe(200);
    expect(((await extended.json()) as { original_name: string }).original_name).toBe('résumé.txt');
  });

  it('drops bidi overrides and invisible characters from file names', async () => {
    const disguised = await upload(alice, utf8Bytes('x\u202Egpj.html'), '<!doctype html><p>hi</p>');
    expect(disguised.status).toBe(200);
    expect(disguised.body['original_name']).toBe('xgpj.html');

    const form = new FormData();
    form.append('chat', chatId);
    form.append('file', new File(['a,b\n'], '\u200Bdata\u2066\u202Dset\uFEFF.csv', { type: 'text/csv' }));
    expect((await bob.pb.collection('files').create(form))['original_name']).toBe('dataset.csv');
  });

  it('writes nothing outside the files folder, whatever the file is called', async () => {
    const hostileNames = [
      '../../x.txt',
      '../../../../../../tmp/confab-escape.txt',
      '/etc/passwd.txt',
      '..%2f..%2fescape.txt',
      '..\\..\\windows.txt',
      'C:\\Windows\\system32\\evil.txt',
      'nul\u0000byte.txt',
      `${'a'.repeat(300)}.txt`,
      '.hidden.txt',
      'line\r\nbreak.txt',
    ];
    const before = tree(testServer.dataDir).filter((entry) => !entry.startsWith('files/'));
    const filesBefore = new Set(tree(filesRoot()));
    const storedBefore = new Set(await storedFiles());
    for (const name of hostileNames) {
      const created = await upload(alice, name, 'harmless text\n');
      if (created.status !== 200) {
        // A name the multipart layer refuses is fine; it must still write nothing.
        expect(created.status).toBe(400);
        continue;
      }
      const stored = String(created.body['file']);
      expect(stored).toMatch(/^[a-z0-9_]{1,100}_[a-z0-9]{10}\.txt$/);
      expect(String(created.body['original_name'])).not.toMatch(/[/\\\u0000-\u001f]/);
      expect(String(created.body['original_name']).length).toBeLessThanOrEqual(255);
    }
    const after = tree(testServer.dataDir).filter((entry) => !entry.startsWith('files/'));
    // Outside files/ only the database's own files may change size (WAL); no new entries appear.
    const names = (entries: string[]) => entries.map((entry) => entry.replace(/ \d+$/, '')).filter((name) => !name.startsWith('confab.db'));
    expect(names(after)).toEqual(names(before));
    expect(existsSync('/tmp/confab-escape.txt')).toBe(false);
    const added = tree(filesRoot()).filter((entry) => !filesBefore.has(entry));
    // With a bucket nothing but the staging folder appears on disk.
    const onDisk = bucket === undefined ? `^(${chatId}/|${chatId}/[a-z0-9]{15}/|${chatId}/[a-z0-9]{15}/[a-z0-9_]+_[a-z0-9]{10}\\.txt \\d+|\\.incoming/)$` : '^\\.incoming/$';
    for (const entry of added) expect(entry).toMatch(new RegExp(onDisk));
    for (const entry of (await storedFiles()).filter((key) => !storedBefore.has(key))) {
      expect(entry).toMatch(new RegExp(`^${chatId}/[a-z0-9]{15}/[a-z0-9_]+_[a-z0-9]{10}\\.txt \\d+$`));
    }
    expect(incomingLeft()).toEqual([]);
  });

  it('answers malformed multipart bodies with 400 and keeps serving', async () => {
    const post = (contentType: string, body: string) =>
      fetch(`${testServer.url}/api/collections/files/records`, { method: 'POST', headers: { 'content-type': contentType, authorization: bearer(alice) }, body });
    const cases: Array<[string, string]> = [
      ['multipart/form-data', '--x\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhi\r\n--x--\r\n'],
      ['multipart/form-data; boundary=x', 'not a multipart body at all'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\ncut short'],
      ['multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="chat"\r\n\r\n${chatId}\r\n--x--\r\n`],
    ];
    for (const [contentType, body] of cases) {
      const response = await post(contentType, body);
      expect(response.status, body.slice(0, 40)).toBe(400);
      expect(((await response.json()) as { message: string }).message).toEqual(expect.any(String));
    }
    expect(incomingLeft()).toEqual([]);
    expect((await rawRequest(testServer.url, 'GET', '/api/health')).status).toBe(200);
  });

  it('refuses unsupported formats and content that contradicts its extension', async () => {
    const exe = await upload(alice, 'setup.exe', 'MZ\u0090\u0000');
    expect(exe.status).toBe(400);
    expect(exe.body['message']).toBe(
      'Unsupported file format: .exe. Supported formats: .pdf, .txt, .csv, .json, .md, .docx, .xlsx, .html, .xml, .log, .mp3, .wav, .ogg, .m4a, .flac',
    );
    const svg = await upload(alice, 'logo.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect(svg.status).toBe(400);

    const htmlAsPdf = await upload(alice, 'invoice.pdf', '<!doctype html><html><script>alert(document.cookie)</script></html>');
    expect(htmlAsPdf.status).toBe(400);
    expect(htmlAsPdf.body['message']).toBe('The file content does not match its .pdf extension.');
    expect((htmlAsPdf.body['data'] as Record<string, { code: string }>)['file']?.code).toBe('validation_invalid_file_content');

    expect((await upload(alice, 'notes.txt', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]))).status).toBe(400);
    expect((await upload(alice, 'page.txt', '<html><body><script>x()</script></body></html>')).status).toBe(400);
    expect((await upload(alice, 'song.mp3', 'not really audio')).status).toBe(400);
    expect((await upload(alice, 'empty.txt', '')).status).toBe(400);
    expect((await upload(alice, 'real.pdf', pdfBytes)).status).toBe(200);
    expect(incomingLeft()).toEqual([]);
  });

  /**
   * Streams a multipart upload whose file part holds `fileBytes` bytes, and stops writing as soon
   * as an answer arrives. Resolves with the answer and how much had been written by then.
   */
  function streamUpload(
    fileBytes: number,
    signedIn = true,
    file: { name: string; start?: Buffer } = { name: 'big.txt' },
  ): Promise<{ status: number; body: string; writtenAtAnswer: number }> {
    const head = multipart([{ name: 'chat', value: chatId }, { name: 'file', value: Buffer.alloc(0), filename: file.name }]);
    const marker = Buffer.from(`filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    const split = head.body.indexOf(marker) + marker.length;
    const prefix = head.body.subarray(0, split);
    const suffix = head.body.subarray(split);
    const chunk = Buffer.alloc(megabyte, 'a');
    let written = 0;
    let answered = false;
    return new Promise((resolve, reject) => {
      const request = httpRequest(new URL('/api/collections/files/records', testServer.url), {
        method: 'POST',
        headers: {
          'content-type': head.contentType,
          'content-length': String(prefix.length + fileBytes + suffix.length),
          ...(signedIn ? { authorization: bearer(alice) } : {}),
        },
      });
      request.on('response', (response) => {
        answered = true;
        const writtenAtAnswer = written;
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (text: string) => (body += text));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body, writtenAtAnswer }));
      });
      request.on('error', (error) => {
        // The server cuts the connection after answering; only an error before the answer fails.
        if (!answered) reject(error);
      });
      const pump = () => {
        while (written < fileBytes && !answered) {
          const size = Math.min(chunk.length, fileBytes - written);
          written += size;
          if (!request.write(size === chunk.length ? chunk : chunk.subarray(0, size))) {
            request.once('drain', pump);
            return;
          }
        }
        if (!answered) request.end(suffix);
      };
      const start = file.start ?? Buffer.alloc(0);
      request.write(Buffer.concat([prefix, start]));
      written = start.length;
      pump();
    });
  }

  it('cuts off an upload past 100 MB mid-stream with 413, leaving no temporary file and no record', async () => {
    const before = await testServer.probe.count('files');
    const justOver = await streamUpload(100 * megabyte + 1);
    expect(justOver.status).toBe(413);
    expect(JSON.parse(justOver.body)).toMatchObject({ status: 413, message: 'File is too large. Maximum size is 100MB.' });

    // Nobody uploads anonymously: refused before the server reads the body.
    const anonymous = await streamUpload(300 * megabyte, false);
    expect(anonymous.status).toBe(400);
    expect(anonymous.writtenAtAnswer).toBeLessThan(100 * megabyte);

    // A 300 MB body is answered long before its end: the server stops reading at the limit.
    const huge = await streamUpload(300 * megabyte);
    expect(huge.status).toBe(413);
    expect(huge.writtenAtAnswer).toBeLessThan(200 * megabyte);

    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(incomingLeft()).toEqual([]);
    expect(await testServer.probe.count('files')).toBe(before);

    // Exactly 100 MB is still allowed.
    const limit = await upload(alice, 'limit.log', Buffer.alloc(100 * megabyte, 'b'));
    expect(limit.status).toBe(200);
    expect(limit.body['size']).toBe(100 * megabyte);
    expect(incomingLeft()).toEqual([]);
  }, 120_000);

  /** Every name that appears in `.incoming` while `action` runs (created, written or removed). */
  async function incomingActivity<T>(action: () => Promise<T>): Promise<{ result: T; touched: string[] }> {
    mkdirSync(incoming(), { recursive: true });
    const touched = new Set<string>();
    const watcher = watch(incoming(), (_event, name) => touched.add(String(name)));
    try {
      const result = await action();
      // Let the watcher deliver what happened up to the answer.
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { result, touched: [...touched] };
    } finally {
      watcher.close();
    }
  }

  it('refuses an unsupported format from its part header, before a byte of it is written', async () => {
    const { result, touched } = await incomingActivity(() => streamUpload(20 * megabyte, true, { name: 'setup.exe', start: Buffer.from('MZ\u0090\u0000') }));
    expect(result.status).toBe(400);
    const body = JSON.parse(result.body) as { message: string; data: Record<string, { code: string; message: string }> };
    expect(body.message).toBe(messages.unsupportedFileFormat('.exe'));
    expect(body.data['file']).toEqual({ code: 'validation_invalid_file_type', message: messages.unsupportedFileFormat('.exe') });
    expect(result.writtenAtAnswer).toBeLessThan(20 * megabyte);
    expect(touched).toEqual([]);
    expect(incomingLeft()).toEqual([]);
  }, 60_000);

  it('refuses content that contradicts its extension from its first bytes, before the rest is written', async () => {
    const html = Buffer.from(`<!doctype html><html><script>alert(document.cookie)</script>${' '.repeat(16 * 1024)}`);
    const { result, touched } = await incomingActivity(() => streamUpload(20 * megabyte, true, { name: 'invoice.pdf', start: html }));
    expect(result.status).toBe(400);
    const body = JSON.parse(result.body) as { message: string; data: Record<string, { code: string }> };
    expect(body.message).toBe('The file content does not match its .pdf extension.');
    expect(body.data['file']?.code).toBe('validation_invalid_file_content');
    expect(result.writtenAtAnswer).toBeLessThan(20 * megabyte);
    expect(touched).toEqual([]);

    // A short file is checked whole when it ends before the first 8 KB.
    const short = await incomingActivity(() => upload(alice, 'song.mp3', 'not really audio'));
    expect(short.result.status).toBe(400);
    expect((short.result.body['data'] as Record<string, { code: string }>)['file']?.code).toBe('validation_invalid_file_content');
    expect(short.touched).toEqual([]);
    expect(incomingLeft()).toEqual([]);
  }, 60_000);

  it('lets only participants upload, list, download, and only the uploader delete', async () => {
    const created = await upload(alice, 'plan.md', '# Plan\n');
    const id = String(created.body['id']);
    const stored = String(created.body['file']);
    const stored_ = async () => (await storedFiles(`${chatId}/${id}/`)).length;

    // Mallory is in no chat with Alice: she cannot add, list, download or delete.
    expect((await upload(mallory, 'sneak.txt', 'hi')).status).toBe(400);
    expect((await upload(undefined, 'anon.txt', 'hi')).status).toBe(400);
    expect((await rawRequest(testServer.url, 'GET', `/api/collections/files/records?filter=${encodeURIComponent(`chat='${chatId}'`)}`, { token: bearer(mallory) })).status).toBe(404);
    expect((await rawRequest(testServer.url, 'GET', `/api/collections/files/records/${id}`, { token: bearer(mallory) })).status).toBe(404);
    expect((await rawRequest(testServer.url, 'GET', `/api/files/files/${id}/${stored}`, { token: bearer(mallory) })).status).toBe(404);
    expect((await rawRequest(testServer.url, 'GET', `/api/files/files/${id}/${stored}?token=${await fileToken(mallory)}`)).status).toBe(404);
    expect((await rawRequest(testServer.url, 'GET', `/api/files/files/${id}/${stored}`)).status).toBe(404);
    expect((await rawRequest(testServer.url, 'DELETE', `/api/collections/files/records/${id}`, { token: bearer(mallory) })).status).toBe(404);
    // An unfiltered list simply shows her nothing of this chat.
    const unfiltered = await rawRequest(testServer.url, 'GET', '/api/collections/files/records?perPage=500', { token: bearer(mallory) });
    expect((unfiltered.body as { items: Array<{ chat: string }> }).items.filter((item) => item.chat === chatId)).toEqual([]);

    // Bob is a participant: he lists and downloads, but cannot delete Alice's file.
    const bobList = await rawRequest(testServer.url, 'GET', `/api/collections/files/records?filter=${encodeURIComponent(`chat='${chatId}'`)}`, { token: bearer(bob) });
    expect(bobList.status).toBe(200);
    expect((await rawRequest(testServer.url, 'GET', `/api/files/files/${id}/${stored}`, { token: bearer(bob) })).text).toBe('# Plan\n');
    expect((await rawRequest(testServer.url, 'DELETE', `/api/collections/files/records/${id}`, { token: bearer(bob) })).status).toBe(404);
    expect(await stored_()).toBe(1);

    // Alice deletes her own: the record and the bytes go.
    expect((await rawRequest(testServer.url, 'DELETE', `/api/collections/files/records/${id}`, { token: bearer(alice) })).status).toBe(204);
    expect(await stored_()).toBe(0);
    expect((await rawRequest(testServer.url, 'GET', `/api/files/files/${id}/${stored}`, { token: bearer(alice) })).status).toBe(404);
  });

  it('serves downloads as attachments with nosniff and a sandbox, inline only for audio and PDF', async () => {
    const html = await upload(alice, 'page.html', '<!doctype html><html><body><script>parent.postMessage(localStorage.length,"*")</script></body></html>');
    expect(html.status).toBe(200);
    const csv = await upload(alice, 'data.csv', 'a,b\n1,2\n');
    const mp3 = await upload(alice, 'song.mp3', mp3Bytes);
    const pdf = await upload(alice, 'doc.pdf', pdfBytes);
    const token = await fileToken(bob);
    const get = (record: Record<string, unknown>, query = '') =>
      fetch(`${testServer.url}/api/files/files/${String(record['id'])}/${String(record['file'])}?token=${token}${query}`);

    for (const record of [html.body, csv.body]) {
      const response = await get(record);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toMatch(/^sandbox;/);
      await response.arrayBuffer();
    }
    const htmlResponse = await get(html.body);
    expect(htmlResponse.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(htmlResponse.headers.get('content-disposition')).toBe(`attachment; filename="page.html"; filename*=UTF-8''page.html`);
    await htmlResponse.arrayBuffer();

    for (const record of [mp3.body, pdf.body]) {
      const response = await get(record);
      expect(response.headers.get('content-disposition')).toMatch(/^inline;/);
      expect(response.headers.get('content-security-policy')).toMatch(/^sandbox;/);
      await response.arrayBuffer();
      const forced = await get(record, '&download=1');
      expect(forced.headers.get('content-disposition')).toMatch(/^attachment;/);
      await forced.arrayBuffer();
    }
    const mp3Response = await get(mp3.body);
    expect(mp3Response.headers.get('content-type')).toBe('audio/mpeg');
    await mp3Response.arrayBuffer();

    // Audio seeks with ranges.
    const ranged = await fetch(`${testServer.url}/api/files/files/${String(mp3.body['id'])}/${String(mp3.body['file'])}?token=${token}`, { headers: { range: 'bytes=0-9' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 0-9/${mp3Bytes.length}`);
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual(mp3Bytes.subarray(0, 10));
    const beyond = await fetch(`${testServer.url}/api/files/files/${String(mp3.body['id'])}/${String(mp3.body['file'])}?token=${token}`, { headers: { range: `bytes=${mp3Bytes.length}-` } });
    expect(beyond.status).toBe(416);
    await beyond.arrayBuffer();

    // A wrong file name for the record is a 404 too.
    expect((await rawRequest(testServer.url, 'GET', `/api/files/files/${String(csv.body['id'])}/other_abcdefghij.csv?token=${token}`)).status).toBe(404);
  });

  it('file tokens expire after 180 s and never work as auth tokens', async () => {
    const created = await upload(alice, 'short.txt', 'short-lived\n');
    const path = `/api/files/files/${String(created.body['id'])}/${String(created.body['file'])}`;
    const token = await fileToken(alice);
    expect((await rawRequest(testServer.url, 'GET', `${path}?token=${token}`)).status).toBe(200);
    expect((await rawRequest(testServer.url, 'GET', '/api/collections/files/records', { token: `Bearer ${token}` })).status).toBe(200);
    const asAuth = await rawRequest(testServer.url, 'POST', '/api/collections/users/auth-refresh', { token: `Bearer ${token}` });
    expect(asAuth.status).toBe(401);
    expect((await rawRequest(testServer.url, 'POST', '/api/files/token')).status).toBe(401);
    clockOffsetMs = 181_000;
    try {
      expect((await rawRequest(testServer.url, 'GET', `${path}?token=${token}`)).status).toBe(404);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it("serves the chat's live website sandboxed, to participants only", async () => {
    const chat = await createChat(alice, { name: 'Site', participants: [bob.record.id] });
    const siteUpload = (name: string, content: string) => upload(alice, name, content, { chat: chat.id });
    const liveStart = (token: string) => fetch(`${testServer.url}/live/${chat.id}/?token=${token}`, { redirect: 'manual' });

    // No index.html yet: a plain 404 page.
    const early = await liveStart(await fileToken(alice));
    expect(early.status).toBe(302);
    const earlyPage = await fetch(new URL(early.headers.get('location') ?? '', testServer.url));
    expect(earlyPage.status).toBe(404);
    expect(earlyPage.headers.get('content-type')).toMatch(/^text\/html/);
    await earlyPage.arrayBuffer();

    expect((await siteUpload('index.html', '<!doctype html><html><head><link rel="stylesheet" href="site.json"></head><body><h1>Old</h1></body></html>')).status).toBe(200);
    expect((await siteUpload('index.html', '<!doctype html><html><body><h1>Hello from the chat</h1><script>document.title = "ran"</script></body></html>')).status).toBe(200);
    expect((await siteUpload('data.json', '{"ok":true}')).status).toBe(200);

    const start = await liveStart(await fileToken(bob));
    expect(start.status).toBe(302);
    const location = start.headers.get('location') ?? '';
    expect(location).toMatch(new RegExp(`^/live/${chat.id}/~[a-z0-9]{15}\\.\\d+\\.[A-Za-z0-9_-]{43}/$`));
    await start.arrayBuffer();

    const page = await fetch(new URL(location, testServer.url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/^sandbox /);
    expect(policy).toContain('allow-scripts');
    expect(policy).not.toContain('allow-same-origin');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await page.text()).toContain('Hello from the chat');

    const asset = await fetch(new URL(`${location}data.json`, testServer.url));
    expect(asset.status).toBe(200);
    expect(await asset.json()).toEqual({ ok: true });
    const missing = await fetch(new URL(`${location}nope.css`, testServer.url));
    expect(missing.status).toBe(404);
    await missing.arrayBuffer();
    const withoutSlash = await fetch(new URL(location.slice(0, -1), testServer.url), { redirect: 'manual' });
    expect(withoutSlash.status).toBe(301);
    expect(withoutSlash.headers.get('location')).toBe(location);
    await withoutSlash.arrayBuffer();

    // Outsiders, forged or tampered capabilities and other chats get the same 404 page.
    for (const path of [
      `/live/${chat.id}/`,
      `/live/${chat.id}/?token=${await fileToken(mallory)}`,
      `/live/${chat.id}/?token=not-a-token`,
      `/live/${chat.id}/~${mallory.record.id}.9999999999.${'A'.repeat(43)}/`,
      // The signature's last base64url character carries 2 padding bits: tamper with one in the middle.
      location.replace(/(.)(.{9}\/)$/, (_match, character: string, rest: string) => `${character === 'A' ? 'B' : 'A'}${rest}`),
      location.replace(chat.id, chatId),
    ]) {
      const response = await fetch(new URL(path, testServer.url), { redirect: 'manual' });
      expect(response.status, path).toBe(404);
      expect(await response.text()).toContain('Not found');
    }

    // Removing Bob from the chat ends his access at once.
    await alice.pb.collection('chats').update(chat.id, { 'participants-': [bob.record.id] });
    const afterRemoval = await fetch(new URL(location, testServer.url));
    expect(afterRemoval.status).toBe(404);
    await afterRemoval.arrayBuffer();

    expect(redactUrl(location)).toBe(`/live/${chat.id}/~[redacted]/`);
  });

  it('gives the live site a capability that lasts 1 hour: working at 59 minutes, a 404 at 61', async () => {
    const chat = await createChat(alice, { name: 'Short-lived site' });
    expect((await upload(alice, 'index.html', '<!doctype html><html><body><h1>Brief</h1></body></html>', { chat: chat.id })).status).toBe(200);
    const start = await fetch(`${testServer.url}/live/${chat.id}/?token=${await fileToken(alice)}`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const page = new URL(start.headers.get('location') ?? '', testServer.url);
    await start.arrayBuffer();
    try {
      clockOffsetMs = 59 * 60 * 1000;
      const early = await fetch(page);
      expect(early.status).toBe(200);
      const html = await early.text();
      expect(html).toContain('Brief');
      const head = await fetch(page, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(html)));
      await head.arrayBuffer();
      clockOffsetMs = 61 * 60 * 1000;
      const late = await fetch(page);
      expect(late.status).toBe(404);
      expect(await late.text()).toContain('Not found');
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('answers HEAD on a download with the headers of GET and no body, ranges included', async () => {
    const created = await upload(alice, 'head.csv', 'id,name\n1,Ada\n2,Grace\n');
    const size = Buffer.byteLength('id,name\n1,Ada\n2,Grace\n');
    const path = `/api/files/files/${String(created.body['id'])}/${String(created.body['file'])}`;
    const token = await fileToken(bob);
    const compared = ['content-type', 'content-disposition', 'x-content-type-options', 'content-security-policy', 'cache-control', 'accept-ranges'];
    for (const [name, url, headers] of [
      ['by header', `${testServer.url}${path}`, { authorization: bearer(bob) }],
      ['by file token', `${testServer.url}${path}?token=${token}`, {}],
    ] as const) {
      const get = await fetch(url, { headers });
      expect(get.status, name).toBe(200);
      expect(Buffer.from(await get.arrayBuffer())).toHaveLength(size);
      const head = await fetch(url, { method: 'HEAD', headers });
      expect(head.status, name).toBe(200);
      expect(head.headers.get('content-length'), name).toBe(String(size));
      expect(Buffer.from(await head.arrayBuffer()), name).toHaveLength(0);
      for (const header of compared) expect(head.headers.get(header), `${name}: ${header}`).toBe(get.headers.get(header));
      expect(head.headers.get('x-content-type-options')).toBe('nosniff');

      const ranged = await fetch(url, { method: 'HEAD', headers: { ...headers, range: 'bytes=3-9' } });
      expect(ranged.status, name).toBe(206);
      expect(ranged.headers.get('content-length'), name).toBe('7');
      expect(ranged.headers.get('content-range'), name).toBe(`bytes 3-9/${size}`);
      expect(Buffer.from(await ranged.arrayBuffer())).toHaveLength(0);
    }
    // Refusals stay refusals: HEAD by an outsider is the same 404 as GET.
    const outsider = await fetch(`${testServer.url}${path}`, { method: 'HEAD', headers: { authorization: bearer(mallory) } });
    expect(outsider.status).toBe(404);
    await outsider.arrayBuffer();
  });

  it("tells every participant's sockets when a file is added or deleted, and nobody else", async () => {
    const bobSocket = await authenticatedSocket(testServer.url, bob.pb.authStore.token);
    const mallorySocket = await authenticatedSocket(testServer.url, mallory.pb.authStore.token);
    try {
      const created = await upload(alice, 'announce.txt', 'news\n');
      const added = await bobSocket.nextOfType('chat_files_changed', 5_000);
      expect(added).toEqual({ type: 'chat_files_changed', chat_id: chatId, action: 'added', file_id: created.body['id'] });
      expect((await rawRequest(testServer.url, 'DELETE', `/api/collections/files/records/${String(created.body['id'])}`, { token: bearer(alice) })).status).toBe(204);
      const deleted = await bobSocket.nextOfType('chat_files_changed', 5_000);
      expect(deleted).toMatchObject({ action: 'deleted', file_id: created.body['id'] });
      expect(await mallorySocket.collect((frame) => frame.type === 'chat_files_changed', 300)).toEqual([]);
    } finally {
      await bobSocket.close();
      await mallorySocket.close();
    }
  });

  it("deleting a chat removes its files from the store", async () => {
    const chat = await createChat(alice, { name: 'Temporary' });
    const created = await upload(alice, 'gone.txt', 'bye\n', { chat: chat.id });
    expect(created.status).toBe(200);
    expect(await storedFiles(`${chat.id}/`)).toHaveLength(1);
    await alice.pb.collection('chats').delete(chat.id);
    expect(await storedFiles(`${chat.id}/`)).toEqual([]);
    expect(existsSync(join(filesRoot(), chat.id))).toBe(false);
    expect((await testServer.probe.rows('select id from files where chat = $1', [chat.id])).length).toBe(0);
  });
});

describe.each(variants)('upload allowance per user and hour ($name, $store)', (variant) => {
  let testServer: TestServer;
  let bucket: TestBucket | undefined;
  let clockOffsetMs = 0;
  beforeAll(async () => {
    if (variant.store === 's3') bucket = await startTestBucket();
    testServer = await startTestServer(variant, { uploadMegabytesPerUserPerHour: 1, now: () => new Date(Date.now() + clockOffsetMs), ...bucket?.serverOptions() });
  });
  afterAll(async () => {
    await testServer?.close();
    await bucket?.close();
  });

  it('refuses uploads with 429 once a user has sent the hourly allowance, other users unaffected, and allows again an hour later', async () => {
    const alice = await registerUser(testServer);
    const bob = await registerUser(testServer);
    const chat = await createChat(alice, { participants: [bob.record.id] });
    const send = async (user: RegisteredUser, name: string, bytes: number) => {
      const form = new FormData();
      form.append('chat', chat.id);
      form.append('file', new File([Buffer.alloc(bytes, 'x')], name, { type: 'text/plain' }));
      const response = await fetch(`${testServer.url}/api/collections/files/records`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.pb.authStore.token}` },
        body: form,
      });
      return { status: response.status, body: (await response.json()) as { message?: string } };
    };

    expect((await send(alice, 'one.txt', 600 * 1024)).status).toBe(200);
    // The allowance is checked before an upload starts: this one may end past it.
    expect((await send(alice, 'two.txt', 600 * 1024)).status).toBe(200);
    const refused = await send(alice, 'three.txt', 10);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('Upload limit reached: at most 1 MB per hour. Please try again later.');
    expect((await send(bob, 'bob.txt', 10)).status).toBe(200);
    expect(await testServer.probe.count('files')).toBe(3);

    clockOffsetMs = 61 * 60 * 1000;
    try {
      expect((await send(alice, 'later.txt', 10)).status).toBe(200);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('counts every byte of refused uploads too: two refused 600 KB uploads use up 1 MB', async () => {
    const carol = await registerUser(testServer);
    const dave = await registerUser(testServer);
    const chat = await createChat(carol, { participants: [dave.record.id] });
    // One connection for all of Carol's uploads: each next request follows the previous body.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (user: RegisteredUser, name: string, content: Buffer) =>
      new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
        const { body, contentType } = multipart([
          { name: 'chat', value: chat.id },
          { name: 'file', value: content, filename: name },
        ]);
        const request = httpRequest(new URL('/api/collections/files/records', testServer.url), {
          method: 'POST',
          agent,
          headers: { 'content-type': contentType, 'content-length': String(body.length), authorization: `Bearer ${user.pb.authStore.token}` },
        });
        request.on('error', reject);
        request.on('response', (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
        });
        // The whole body is sent even when the answer comes first, as a browser's upload is.
        request.end(body);
      });
    try {
      const before = await testServer.probe.count('files');
      const exe = await send(carol, 'tool.exe', Buffer.alloc(600 * 1024, 'x'));
      expect(exe.status).toBe(400);
      const disguised = await send(carol, 'paper.pdf', Buffer.concat([Buffer.from('<!doctype html>'), Buffer.alloc(600 * 1024, ' ')]));
      expect(disguised.status).toBe(400);
      const next = await send(carol, 'small.txt', Buffer.from('hi\n'));
      expect(next.status).toBe(429);
      expect(next.body['message']).toBe('Upload limit reached: at most 1 MB per hour. Please try again later.');
      expect((await send(dave, 'dave.txt', Buffer.from('hi\n'))).status).toBe(200);
      expect(await testServer.probe.count('files')).toBe(before + 1);
    } finally {
      agent.destroy();
    }
  });
});
