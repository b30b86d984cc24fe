import { open, type FileHandle } from 'node:fs/promises';
import { Transform, Writable, type TransformCallback } from 'node:stream';
import { ConfabServerError } from '../errors';
import { refuseContent, sniffBytes, uploadMaximumBytes } from '../services/files/uploadRules';

export const fileTooLargeMessage = 'File is too large. Maximum size is 100MB.';

/**
 * Stands between a multipart file part and its temporary file: counts the bytes and stops past
 * 100 MB (413), and holds back the first `sniffBytes` until `refuseContent` has passed them, so
 * an .html renamed .pdf is refused before a byte of it is written. A file shorter than that is
 * checked whole when it ends; an empty one passes, for the files collection to refuse.
 */
export class UploadGate extends Transform {
  size = 0;
  /** The first `sniffBytes` bytes, once checked. */
  head: Buffer = Buffer.alloc(0);
  private held: Buffer[] = [];
  private checked = false;

  constructor(private readonly extension: string) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > uploadMaximumBytes) {
      callback(new ConfabServerError('payloadTooLarge', fileTooLargeMessage));
      return;
    }
    if (this.checked) {
      callback(null, chunk);
      return;
    }
    this.held.push(chunk);
    // One byte past the head tells that the head is not the whole file.
    callback(this.size > sniffBytes ? this.release(false) : null);
  }

  override _flush(callback: TransformCallback): void {
    callback(this.checked || this.size === 0 ? null : this.release(true));
  }

  private release(complete: boolean): Error | null {
    const held = Buffer.concat(this.held, this.size);
    this.held = [];
    this.head = Buffer.from(held.subarray(0, sniffBytes));
    const refusal = refuseContent(this.extension, this.head, complete);
    if (refusal !== undefined) return refusal;
    this.checked = true;
    this.push(held);
    return null;
  }
}

/**
 * A temporary upload file that comes into being with its first byte (or, for an empty file, at
 * the end), so an upload refused by its gate leaves no trace in `.incoming`. Created exclusively
 * and readable by the server only.
 */
export class StagingFile extends Writable {
  private handle: FileHandle | undefined;
  /** The write in progress: destroying waits for it, so no descriptor outlives the stream. */
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly path: string) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.writing = this.append(chunk);
    this.writing.then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.writing = this.append(Buffer.alloc(0)).then(() => this.close());
    this.writing.then(() => callback(), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.writing
      .catch(() => undefined)
      .then(() => this.close())
      .then(
        () => callback(error),
        () => callback(error),
      );
  }

  private async append(chunk: Buffer): Promise<void> {
    this.handle ??= await open(this.path, 'wx', 0o600);
    for (let offset = 0; offset < chunk.length; ) offset += (await this.handle.write(chunk, offset)).bytesWritten;
  }

  private async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }
}
