/**
 * The packages as npm gets them: each is packed with pnpm (workspace ranges resolved,
 * publishConfig applied) and its tarball must pass publint in strict mode and
 * @arethetypeswrong/cli, with the exports map people rely on. `pnpm test` builds dist first.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packPackage, publicPackages, repositoryRoot, type PublicPackage } from './packWorkspace';
import { linkTargets } from './markdownLinks.mjs';

const run = promisify(execFile);
const attwBin = join(repositoryRoot, 'node_modules/.bin/attw');
const sourceCondition = '@confab/source';

type ExportsValue = string | Record<string, string>;
interface Manifest {
  name: string;
  license?: string;
  repository?: { type?: string; url?: string; directory?: string } | string;
  engines?: Record<string, string>;
  exports?: Record<string, ExportsValue>;
  publishConfig?: { exports?: Record<string, ExportsValue> };
  bin?: Record<string, string>;
  main?: string;
  types?: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

async function packedManifest(tarball: string): Promise<Manifest> {
  const { stdout } = await run('tar', ['-xzOf', tarball, 'package/package.json']);
  return JSON.parse(stdout) as Manifest;
}

async function workspaceManifest(folder: PublicPackage): Promise<Manifest> {
  return JSON.parse(await readFile(join(repositoryRoot, 'packages', folder, 'package.json'), 'utf8')) as Manifest;
}

/** The published map: the workspace's source condition removed, source-only entries dropped. */
function withoutSourceCondition(map: Record<string, ExportsValue>): Record<string, ExportsValue> {
  const published: Record<string, ExportsValue> = {};
  for (const [subpath, value] of Object.entries(map)) {
    if (typeof value === 'string') {
      published[subpath] = value;
      continue;
    }
    const conditions = Object.fromEntries(Object.entries(value).filter(([condition]) => condition !== sourceCondition));
    if (Object.keys(conditions).length > 0) published[subpath] = conditions;
  }
  return published;
}

/** `git+https://github.com/o/r.git` → `https://github.com/o/r`, where README links point. */
const repositoryPage = (url: string) => url.replace(/^git\+/, '').replace(/\.git$/, '');

const isCodeEntry = (subpath: string) => !subpath.endsWith('.css') && subpath !== './package.json';

describe('published packages', () => {
  let directory: string;
  const tarballs = new Map<PublicPackage, string>();

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'confab-packs-'));
    // One at a time: the server's prepack compresses the web app, and this is a shared 2-core machine.
    for (const folder of publicPackages) tarballs.set(folder, await packPackage(folder, directory));
  });

  afterAll(async () => {
    if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  });

  describe.each(publicPackages)('@confab/%s', (folder) => {
    it('passes publint (strict) on its tarball', async () => {
      const tarball = await readFile(tarballs.get(folder)!);
      const { messages, pkg } = await publint({ pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) }, strict: true, level: 'warning' });
      expect(messages.map((message) => `${message.type}: ${formatMessage(message, pkg) ?? message.code}`)).toEqual([]);
    });

    it('passes @arethetypeswrong/cli (ESM-only profile) on its tarball, every entry included', async () => {
      // Stylesheets too: chat-ui's theme.css has a types condition (an empty module) for it.
      const args = [tarballs.get(folder)!, '--profile', 'esm-only', '--format', 'json'];
      const result = await run(attwBin, args, { maxBuffer: 64 * 1024 * 1024 }).then(
        ({ stdout }) => ({ code: 0, output: stdout }),
        (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? 1, output: `${error.stdout ?? ''}${error.stderr ?? ''}` }),
      );
      const report = JSON.parse(result.output) as { problems?: Record<string, Array<{ kind: string; entrypoint?: string; resolutionKind?: string }>> };
      // The ESM-only profile: require() from CommonJS (node16-cjs) and pre-exports resolution (node10) are out of scope.
      const problems = Object.values(report.problems ?? {})
        .flat()
        .filter((problem) => problem.resolutionKind !== 'node10' && problem.resolutionKind !== 'node16-cjs')
        .map((problem) => `${problem.kind} ${problem.entrypoint ?? ''} ${problem.resolutionKind ?? ''}`.trim());
      expect(problems).toEqual([]);
      expect(result.code).toBe(0);
    });

    it('publishes an exports map with types and default, and ./package.json', async () => {
      const manifest = await packedManifest(tarballs.get(folder)!);
      const exportsMap = manifest.exports ?? {};
      expect(exportsMap['./package.json']).toBe('./package.json');
      expect(JSON.stringify(manifest)).not.toContain(sourceCondition);
      expect(JSON.stringify(manifest)).not.toContain('workspace:');
      expect(manifest.publishConfig?.exports).toBeUndefined();
      for (const [subpath, value] of Object.entries(exportsMap).filter(([subpath]) => isCodeEntry(subpath))) {
        expect(typeof value, subpath).toBe('object');
        // types first: TypeScript takes the first matching condition.
        expect(Object.keys(value as object), subpath).toEqual(['types', 'default']);
      }
    });

    it('names its license, repository and Node range, and ships the LICENSE', async () => {
      const tarball = tarballs.get(folder)!;
      const manifest = await packedManifest(tarball);
      const root = JSON.parse(await readFile(join(repositoryRoot, 'package.json'), 'utf8')) as Manifest;
      expect(manifest.license).toBe('MIT');
      expect(manifest.repository).toEqual({ type: 'git', url: expect.stringMatching(/^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/), directory: `packages/${folder}` });
      expect(manifest.engines?.['node']).toBe(root.engines?.['node']);
      const license = (await run('tar', ['-xzOf', tarball, 'package/LICENSE'])).stdout;
      expect(license).toBe(await readFile(join(repositoryRoot, 'LICENSE'), 'utf8'));
      expect(license).toMatch(/^MIT License\n/);
    });

    it('has a README whose links work on npm: absolute, and to files this repository has', async () => {
      const tarball = tarballs.get(folder)!;
      const manifest = await packedManifest(tarball);
      const readme = (await run('tar', ['-xzOf', tarball, 'package/README.md'])).stdout;
      const page = repositoryPage((manifest.repository as { url: string }).url);
      const broken: string[] = [];
      for (const target of linkTargets(readme)) {
        if (target.startsWith('#')) continue;
        // npm shows the README away from the repository: a relative link leads nowhere there.
        if (!/^(https?|mailto):/.test(target)) {
          broken.push(`${target} (relative)`);
          continue;
        }
        const file = /^([^#?]*)/.exec(target.slice(`${page}/blob/main/`.length))![1]!;
        if (target.startsWith(`${page}/blob/main/`) && !existsSync(join(repositoryRoot, decodeURI(file)))) broken.push(`${target} (no such file)`);
        if (target.startsWith(page) && !target.startsWith(`${page}/blob/main/`) && !target.startsWith(`${page}/tree/main/`) && !/^[#?]|^$/.test(target.slice(page.length))) broken.push(`${target} (not a file of the main branch)`);
      }
      expect(broken).toEqual([]);
    });

    it('keeps the workspace map and the published map in step', async () => {
      const workspace = await workspaceManifest(folder);
      const workspaceExports = workspace.exports ?? {};
      for (const [subpath, value] of Object.entries(workspaceExports)) {
        // The workspace resolves @confab/* from source (docs/STYLE.md, Workspace packages resolve
        // from source): that condition comes first.
        if (typeof value === 'object' && sourceCondition in value) expect(Object.keys(value)[0], subpath).toBe(sourceCondition);
      }
      const published = (await packedManifest(tarballs.get(folder)!)).exports ?? {};
      expect(published).toEqual(withoutSourceCondition(workspaceExports));
    });
  });

  it('ships chat-ui’s stylesheet and makes @confab/client a peer of chat-ui', async () => {
    const tarball = tarballs.get('chat-ui')!;
    const manifest = await packedManifest(tarball);
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.split('\n');
    const themeEntry = manifest.exports?.['./theme.css'];
    // The stylesheet, with a types condition so TypeScript and attw find the import typed.
    expect(typeof themeEntry).toBe('object');
    const { types: themeTypes, default: theme } = themeEntry as Record<string, string>;
    expect(Object.keys(themeEntry as object)).toEqual(['types', 'default']);
    expect(files).toContain(`package/${themeTypes!.replace(/^\.\//, '')}`);
    expect(files).toContain(`package/${(theme as string).replace(/^\.\//, '')}`);
    // Every stylesheet theme.css imports ships with it.
    const themeText = (await run('tar', ['-xzOf', tarball, `package/${(theme as string).replace(/^\.\//, '')}`])).stdout;
    const imports = [...themeText.matchAll(/@import\s+(?:url\()?['"]\.\/([^'"]+)['"]/g)].map((match) => match[1]!);
    expect(imports.length).toBeGreaterThan(0);
    for (const imported of imports) expect(files).toContain(`package/src/theme/${imported}`);
    expect(Object.keys(manifest.peerDependencies ?? {})).toEqual(expect.arrayContaining(['@confab/client', 'react', 'react-dom']));
  });

  it('publishes the CLI as a command: a bin and nothing else to import', async () => {
    const manifest = await packedManifest(tarballs.get('cli')!);
    expect(Object.keys(manifest.bin ?? {})).toEqual(['confab']);
    expect(Object.keys(manifest.exports ?? {})).toEqual(['./package.json']);
    // Self-contained (the client, commander and ws bundled in): a Confab server serves this
    // tarball for `npm install -g`, which then needs no registry at all.
    expect(manifest.dependencies ?? {}).toEqual({});
  });
});
