/**
 * Image uploads an operator adds (CONFAB_UPLOAD_EXTENSIONS; docs/CONTRACTS.md, File messages and
 * system lines): accepted only when listed and only known-safe raster types, checked by signature,
 * served inline as images with the download route's safety headers. Runs on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { optionsFromEnvironment, resolveConfig } from '../src/config';
import { databaseVariants } from './support/databases';
import { createChat, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';

const variants = await databaseVariants();

const pngBytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('0000000dIHDR', 'latin1'), Buffer.alloc(64, 1)]);
const jpegBytes = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 2)]);

async function upload(url: string, user: RegisteredUser, chatId: string, name: string, content: Uint8Array | string) {
  const form = new FormData();
  form.append('chat', chatId);
  form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
  const response = await fetch(`${url}/api/collections/files/records`, { method: 'POST', headers: { authorization: `Bearer ${user.pb.authStore.token}` }, body: form });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('CONFAB_UPLOAD_EXTENSIONS', () => {
  it('adds only known-safe raster image types, never SVG or anything else', () => {
    const options = optionsFromEnvironment([], { CONFAB_UPLOAD_EXTENSIONS: 'png, .JPG,jpeg,csv' });
    expect(resolveConfig({ ...options, secret: 'x'.repeat(32), dataDir: '/tmp/confab-image-config' }).uploadExtensions).toEqual(['.png', '.jpg', '.jpeg']);
    expect(() => resolveConfig({ uploadExtensions: ['svg'], secret: 'x'.repeat(32), dataDir: '/tmp/confab-image-config' })).toThrow(
      "CONFAB_UPLOAD_EXTENSIONS may add only these image types: png, jpg, jpeg, gif, webp (got 'svg')",
    );
    expect(() => resolveConfig({ uploadExtensions: ['exe'], secret: 'x'.repeat(32), dataDir: '/tmp/confab-image-config' })).toThrow(/got 'exe'/);
    expect(resolveConfig({ secret: 'x'.repeat(32), dataDir: '/tmp/confab-image-config' }).uploadExtensions).toEqual([]);
  });
});

describe.each(variants)('image uploads ($name)', (variant) => {
  let withImages: TestServer;
  let plain: TestServer;

  beforeAll(async () => {
    [withImages, plain] = await Promise.all([startTestServer(variant, { uploadExtensions: ['png', 'jpg'] }), startTestServer(variant)]);
  });

  afterAll(async () => {
    await Promise.all([withImages?.close(), plain?.close()]);
  });

  it('accepts a listed image whose bytes are one, serves it inline as an image with nosniff and a sandbox', async () => {
    const ann = await registerUser(withImages, { name: 'Ann' });
    const chat = await createChat(ann);
    const config = await rawRequest(withImages.url, 'GET', '/api/config');
    expect(config.body).toMatchObject({ upload_extensions: ['.png', '.jpg'] });

    const created = await upload(withImages.url, ann, chat.id, 'chart.png', pngBytes);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ original_name: 'chart.png', mime_type: 'image/png' });
    expect((await upload(withImages.url, ann, chat.id, 'photo.jpg', jpegBytes)).status).toBe(200);

    const response = await fetch(`${withImages.url}/api/files/files/${String(created.body['id'])}/${String(created.body['file'])}`, {
      headers: { authorization: `Bearer ${ann.pb.authStore.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-disposition')).toMatch(/^inline; filename="chart.png"/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toMatch(/^sandbox; default-src 'none'/);
    expect(Buffer.from(await response.arrayBuffer()).equals(pngBytes)).toBe(true);
  });

  it('refuses a page dressed as a picture, unlisted types and SVG, and images on a server without them', async () => {
    const ann = await registerUser(withImages);
    const chat = await createChat(ann);
    const disguised = await upload(withImages.url, ann, chat.id, 'cat.png', '<!doctype html><script>alert(1)</script>');
    expect(disguised.status).toBe(400);
    expect(disguised.body).toMatchObject({ message: 'The file content does not match its .png extension.', data: { file: { code: 'validation_invalid_file_content' } } });
    expect((await upload(withImages.url, ann, chat.id, 'cat.jpg', pngBytes)).status).toBe(400);
    for (const name of ['anim.gif', 'logo.svg']) {
      const refused = await upload(withImages.url, ann, chat.id, name, 'GIF89a');
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ data: { file: { code: 'validation_invalid_file_type' } } });
      // The refusal lists what this server takes: the spec's formats, then the operator's images.
      expect(String(refused.body['message'])).toMatch(/ Supported formats: \.pdf, .*, \.flac, \.png, \.jpg$/);
    }

    const bob = await registerUser(plain);
    const plainChat = await createChat(bob);
    const unlisted = await upload(plain.url, bob, plainChat.id, 'chart.png', pngBytes);
    expect(unlisted.status).toBe(400);
    expect(String(unlisted.body['message'])).toMatch(/^Unsupported file format: \.png\. Supported formats: .*\.flac$/);
    expect((await rawRequest(plain.url, 'GET', '/api/config')).body).toMatchObject({ upload_extensions: [] });
  });
});
