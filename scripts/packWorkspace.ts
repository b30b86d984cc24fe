/**
 * Packs workspace packages the way `pnpm publish` would (workspace: ranges resolved,
 * publishConfig applied, prepack run) into a directory, for tests that install or lint the
 * tarballs as someone outside the repository gets them.
 */
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

/** The public packages, by folder under packages/. */
export const publicPackages = ['client', 'chat-ui', 'server', 'cli'] as const;
export type PublicPackage = (typeof publicPackages)[number];

/** pnpm itself when the tests run under `pnpm test`, else pnpm 10 through npx. */
function pnpmCommand(): { file: string; prefix: string[] } {
  const execPath = process.env['npm_execpath'];
  if (execPath !== undefined && /pnpm/.test(basename(execPath))) return { file: process.execPath, prefix: [execPath] };
  return { file: 'npx', prefix: ['-y', 'pnpm@10'] };
}

/** Packs `folder` (under packages/) into `destination`; answers the tarball's path. */
export async function packPackage(folder: PublicPackage, destination: string): Promise<string> {
  const before = new Set(await readdir(destination));
  const { file, prefix } = pnpmCommand();
  await run(file, [...prefix, 'pack', '--pack-destination', destination], {
    cwd: join(repositoryRoot, 'packages', folder),
    maxBuffer: 16 * 1024 * 1024,
  });
  const created = (await readdir(destination)).filter((name) => name.endsWith('.tgz') && !before.has(name));
  if (created.length !== 1) throw new Error(`pnpm pack in packages/${folder} made ${created.length} tarballs: ${created.join(', ')}`);
  return join(destination, created[0]!);
}
