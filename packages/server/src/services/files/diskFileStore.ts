import { createReadStream } from 'node:fs';
import { copyFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { makePrivateFolder } from '../../store/privateDataDir';
import type { FileStore } from './fileStore';
import { filesRoot } from './storage';

/**
 * The embedded default: `<data>/files/<key>`. Uploads are staged in `<data>/files/.incoming/`, on
 * the same file system, so storing one is a rename.
 */
export class DiskFileStore implements FileStore {
  readonly kind = 'disk';
  private readonly root: string;

  constructor(dataDir: string) {
    this.root = filesRoot(dataDir);
  }

  /** The key's path; throws when it would leave the files folder (keys come from fileKey, this is a second fence). */
  private pathOf(key: string): string {
    const path = resolve(this.root, key);
    const inside = relative(this.root, path);
    if (inside === '' || inside.startsWith('..') || inside.startsWith(sep) || inside.startsWith('.incoming')) throw new Error('file path outside the files folder');
    return path;
  }

  async putFile(key: string, path: string): Promise<void> {
    const target = this.pathOf(key);
    makePrivateFolder(dirname(target));
    await rename(path, target);
  }

  async head(key: string): Promise<{ size: number } | undefined> {
    try {
      const stats = await stat(this.pathOf(key));
      return stats.isFile() ? { size: stats.size } : undefined;
    } catch {
      return undefined;
    }
  }

  async get(key: string, range?: { start: number; end: number }): Promise<Readable | undefined> {
    if ((await this.head(key)) === undefined) return undefined;
    return createReadStream(this.pathOf(key), range ?? {});
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.pathOf(prefix.replace(/\/+$/, '')), { recursive: true, force: true });
  }

  localPath(key: string): string {
    return this.pathOf(key);
  }

  async copyToFile(key: string, target: string): Promise<boolean> {
    if ((await this.head(key)) === undefined) return false;
    await copyFile(this.pathOf(key), target);
    return true;
  }

  close(): void {}
}
