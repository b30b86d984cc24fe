/**
 * The CLI and the agent SDK this server serves as npm tarballs (docs/CONTRACTS.md, Server wire
 * surface; what npm needs of them: docs/PROTOCOLS.md, npm tarballs),
 * so `npm i -g <server>/api/packages/confab-cli.tgz` and a project's `npm install` work before
 * (or without) any registry holding @confab/*. Each is packed from the built package this server
 * ships with, once per process:
 *
 * - @confab/client: the one this server depends on (resolved from its own package.json);
 * - @confab/cli: in the workspace, packages/cli next to packages/server; installed from its
 *   tarball, `bundled/cli` inside this package (copied there by scripts/bundle-cli.mjs on pack).
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packFolder, publishedManifest, type PackageManifest } from './tarball';

export type ServedPackage = 'cli' | 'client';
export const servedPackages: readonly ServedPackage[] = ['cli', 'client'];

/** What a built package must hold to be worth serving. */
const builtEntry: Record<ServedPackage, string> = { cli: 'dist/index.js', client: 'dist/agent/index.js' };

export interface PackedPackage {
  name: string;
  version: string;
  bytes: Buffer;
}

/** This package's folder: the nearest package.json above this module named @confab/server. */
export function serverRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(folder, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === '@confab/server') return folder;
    const parent = dirname(folder);
    if (parent === folder) throw new Error('cannot find the @confab/server package folder');
    folder = parent;
  }
}

/** Where the built package is, or null when this server has none to serve. */
export function packageFolder(which: ServedPackage, root = serverRoot()): string | null {
  // In the workspace (sources present) the live packages/cli wins over a copy left by a pack.
  const workspace = existsSync(join(root, 'src'));
  const candidates =
    which === 'cli'
      ? [...(workspace ? [join(root, '..', 'cli')] : []), join(root, 'bundled', 'cli')]
      : [dirname(createRequire(join(root, 'package.json')).resolve('@confab/client/package.json'))];
  return candidates.find((folder) => existsSync(join(folder, builtEntry[which]))) ?? null;
}

/** The file name npm installs it from: confab-cli-0.1.0.tgz. */
export function tarballName(which: ServedPackage, version: string): string {
  return `confab-${which}-${version}.tgz`;
}

const packed = new Map<ServedPackage, Promise<PackedPackage | null>>();

/** The package's tarball (packed on first use, then kept), or null when this server has none. */
export function packedPackage(which: ServedPackage): Promise<PackedPackage | null> {
  let pending = packed.get(which);
  if (pending === undefined) {
    pending = pack(which);
    packed.set(which, pending);
    // A failure is not kept: the next request tries again (e.g. after a build).
    pending.catch(() => packed.delete(which));
  }
  return pending;
}

async function pack(which: ServedPackage): Promise<PackedPackage | null> {
  const folder = packageFolder(which);
  if (folder === null) return null;
  const manifest = publishedManifest(JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as PackageManifest);
  return { name: manifest.name, version: manifest.version, bytes: await packFolder(folder, manifest) };
}
