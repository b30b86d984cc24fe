import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfabServerError } from '../errors';
import { sniffBytes } from '../services/files/uploadRules';
import { StagingFile, UploadGate } from './uploadGate';

/** Runs `chunks` through a gate into memory: what came out, and the gate's error if any. */
async function throughGate(extension: string, chunks: Buffer[]): Promise<{ out: Buffer; error: unknown; gate: UploadGate }> {
  const gate = new UploadGate(extension);
  const out: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      out.push(chunk);
      callback();
    },
  });
  let error: unknown;
  await pipeline(Readable.from(chunks), gate, sink).catch((caught: unknown) => (error = caught));
  return { out: Buffer.concat(out), error, gate };
}

describe('UploadGate', () => {
  it('lets nothing through when the first bytes contradict the extension', async () => {
    const html = Buffer.from(`<!doctype html>${' '.repeat(sniffBytes)}`);
    const { out, error } = await throughGate('.pdf', [html, Buffer.alloc(100_000, 'x')]);
    expect(out.length).toBe(0);
    expect(error).toBeInstanceOf(ConfabServerError);
    expect((error as ConfabServerError).data['file']?.code).toBe('validation_invalid_file_content');
  });

  it('passes every byte, in order, once the head is checked, and keeps the head', async () => {
    const chunks = [Buffer.from('%PDF-1.7\n'), Buffer.alloc(sniffBytes, 'a'), Buffer.alloc(50_000, 'b')];
    const { out, error, gate } = await throughGate('.pdf', chunks);
    expect(error).toBeUndefined();
    expect(out.equals(Buffer.concat(chunks))).toBe(true);
    expect(gate.size).toBe(out.length);
    expect(gate.head.equals(Buffer.concat(chunks).subarray(0, sniffBytes))).toBe(true);
  });

  it('checks a short file whole when it ends, and lets an empty one through', async () => {
    expect((await throughGate('.mp3', [Buffer.from('not really audio')])).error).toBeInstanceOf(ConfabServerError);
    expect((await throughGate('.txt', [Buffer.from('caf'), Buffer.from([0xc3, 0xa9])])).out.toString()).toBe('café');
    const empty = await throughGate('.txt', []);
    expect(empty.error).toBeUndefined();
    expect(empty.gate.size).toBe(0);
  });
});

describe('StagingFile', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'confab-staging-'));
  });
  afterEach(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('creates its file with the first byte only', async () => {
    const path = join(folder, 'a.part');
    const file = new StagingFile(path);
    expect(existsSync(path)).toBe(false);
    await pipeline(Readable.from([Buffer.from('one '), Buffer.from('two')]), file);
    expect(readFileSync(path, 'utf8')).toBe('one two');
  });

  it('leaves no file when destroyed before any byte, and creates an empty one for an empty upload', async () => {
    const refused = join(folder, 'refused.part');
    const file = new StagingFile(refused);
    const closed = new Promise((resolve) => file.once('close', resolve));
    file.on('error', () => undefined);
    file.destroy(new Error('refused'));
    await closed;
    expect(existsSync(refused)).toBe(false);

    const empty = join(folder, 'empty.part');
    await pipeline(Readable.from([]), new StagingFile(empty));
    expect(readFileSync(empty).length).toBe(0);
  });
});
