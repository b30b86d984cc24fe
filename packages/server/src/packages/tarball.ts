/**
 * An npm tarball from a package folder, made in this process the way `npm pack` lays one out
 * (`package/` + the manifest's `files`, gzip'd ustar), so a server installed without pnpm or npm
 * can still serve its CLI and SDK. Deterministic: fixed times and modes, sorted entries, so the
 * same build always gives the same bytes (and the same integrity in a lockfile).
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface PackageManifest {
  name: string;
  version: string;
  files?: string[];
  [field: string]: unknown;
}

/** npm's own fixed mtime for packed files (1985-10-26T08:15:00Z). */
const packedTime = 499162500;
/** Always shipped, whatever `files` says. */
const alwaysIncluded = /^(?:README|LICENSE|LICENCE)(?:\.[^.]+)?$/i;

/**
 * The manifest as published: publishConfig's fields over the workspace's, no scripts or
 * devDependencies (an installed package runs neither). A `workspace:` range left in what an
 * install resolves would fail on the user's machine, so it is refused here instead.
 */
export function publishedManifest(manifest: PackageManifest): PackageManifest {
  const { publishConfig, scripts: _scripts, devDependencies: _devDependencies, ...rest } = manifest;
  const published: PackageManifest = { ...rest, ...(publishConfig as Record<string, unknown> | undefined) };
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [name, range] of Object.entries((published[field] ?? {}) as Record<string, string>)) {
      if (range.startsWith('workspace:')) throw new Error(`${manifest.name} depends on ${name}@${range}: a workspace range cannot be installed outside the repository`);
    }
  }
  return published;
}

/** The package's files, relative and sorted: `files` entries (folders walked), README, LICENSE; no source maps. */
async function packedFiles(folder: string, manifest: PackageManifest): Promise<string[]> {
  const found = new Set<string>();
  const walk = async (path: string): Promise<void> => {
    const info = await stat(path).catch(() => null);
    if (info === null) return;
    if (info.isDirectory()) {
      for (const entry of await readdir(path)) await walk(join(path, entry));
    } else if (info.isFile() && !path.endsWith('.map')) {
      found.add(relative(folder, path).split(sep).join('/'));
    }
  };
  for (const entry of manifest.files ?? ['.']) await walk(join(folder, entry));
  for (const entry of await readdir(folder)) if (alwaysIncluded.test(entry)) found.add(entry);
  found.delete('package.json');
  return [...found].sort();
}

/** A gzip'd npm tarball of `folder`, its package.json replaced by `manifest`. */
export async function packFolder(folder: string, manifest: PackageManifest): Promise<Buffer> {
  const blocks: Buffer[] = [entry('package/package.json', Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`))];
  for (const file of await packedFiles(folder, manifest)) blocks.push(entry(`package/${file}`, await readFile(join(folder, file))));
  blocks.push(Buffer.alloc(1024)); // two empty blocks end the archive
  return gzipSync(Buffer.concat(blocks), { level: 9 });
}

/** One ustar entry: a 512-byte header, then the content padded to 512 bytes. */
function entry(path: string, content: Buffer): Buffer {
  const header = Buffer.alloc(512);
  const [prefix, name] = splitPath(path);
  header.write(name, 0, 100, 'utf8');
  header.write(octal(0o644, 8), 100);
  header.write(octal(0, 8), 108);
  header.write(octal(0, 8), 116);
  header.write(octal(content.length, 12), 124);
  header.write(octal(packedTime, 12), 136);
  header.fill(' ', 148, 156); // the checksum counts its own field as spaces
  header.write('0', 156);
  header.write('ustar\u000000', 257, 'binary');
  header.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 'binary');
  const padding = (512 - (content.length % 512)) % 512;
  return Buffer.concat([header, content, Buffer.alloc(padding)]);
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\u0000`;
}

/** ustar keeps names to 100 bytes, with a 155-byte prefix split at a slash for longer paths. */
function splitPath(path: string): [string, string] {
  if (Buffer.byteLength(path) <= 100) return ['', path];
  for (let cut = path.indexOf('/'); cut !== -1; cut = path.indexOf('/', cut + 1)) {
    const prefix = path.slice(0, cut);
    const name = path.slice(cut + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return [prefix, name];
  }
  throw new Error(`${path} is too long for a tar entry`);
}
