import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { budgetedRouteFiles, formatTable, measureRoutes, routeFiles, type Manifest, type RouteBudgets } from '../../../scripts/sizeBudget.mjs';

// scripts/sizeBudget.mjs (the route budgets `pnpm build` checks) on a fixture build: a real
// manifest shape, real files, real gzip. It lives here because the e2e project is the one that
// runs Node tests for this app.

const script = new URL('../../../scripts/sizeBudget.mjs', import.meta.url).pathname;

// Random bytes do not compress, so each file's gzip size is known to within a few dozen bytes.
const assets: Record<string, Buffer> = {
  'assets/index.js': randomBytes(30_000),
  'assets/react.js': randomBytes(20_000),
  'assets/Login.js': randomBytes(4_000),
  'assets/Form.js': randomBytes(3_000),
  'assets/Chat.js': randomBytes(40_000),
  'assets/markdown.js': randomBytes(25_000),
  'assets/Lightbox.js': randomBytes(50_000),
  'assets/index.css': randomBytes(9_000),
};

const manifest: Manifest = {
  'index.html': {
    file: 'assets/index.js',
    src: 'index.html',
    isEntry: true,
    imports: ['_react.js'],
    dynamicImports: ['src/pages/Login.tsx', 'src/pages/Chat.tsx'],
    css: ['assets/index.css'],
  },
  '_react.js': { file: 'assets/react.js' },
  '_Form.js': { file: 'assets/Form.js', imports: ['_react.js'] },
  '_markdown.js': { file: 'assets/markdown.js', imports: ['_Form.js'] },
  'src/pages/Login.tsx': { file: 'assets/Login.js', src: 'src/pages/Login.tsx', isDynamicEntry: true, imports: ['index.html', '_Form.js'] },
  'src/pages/Chat.tsx': {
    file: 'assets/Chat.js',
    src: 'src/pages/Chat.tsx',
    isDynamicEntry: true,
    imports: ['index.html', '_markdown.js'],
    // Loaded on demand: not part of what the route needs.
    dynamicImports: ['src/Lightbox.tsx'],
  },
  'src/Lightbox.tsx': { file: 'assets/Lightbox.js', src: 'src/Lightbox.tsx', isDynamicEntry: true, imports: ['_react.js'] },
};

const budgets: RouteBudgets = {
  routes: [
    { route: '/login', pages: ['src/pages/Login.tsx'], limitKb: 100 },
    { route: '/chat/:id', pages: ['src/pages/Chat.tsx'], limitKb: 100 },
  ],
};

const gzipOf = (...files: string[]) => files.reduce((total, file) => total + gzipSync(assets[file]!).length, 0);
const readAsset = (file: string) => assets[file]!;

const directories: string[] = [];
afterAll(() => directories.forEach((directory) => rmSync(directory, { recursive: true, force: true })));

describe('sizeBudget', () => {
  it('follows static imports from the entry and the page, each chunk once, and never dynamic ones', () => {
    expect(routeFiles(manifest, ['src/pages/Chat.tsx'])).toEqual(['assets/index.js', 'assets/react.js', 'assets/Chat.js', 'assets/markdown.js', 'assets/Form.js']);
    expect(routeFiles(manifest, ['src/pages/Login.tsx'])).toEqual(['assets/index.js', 'assets/react.js', 'assets/Login.js', 'assets/Form.js']);
  });

  it('gives each budgeted route its files (what a page may preload for it)', () => {
    expect(budgetedRouteFiles({ manifest, budgets })).toEqual([
      { route: '/login', files: ['assets/index.js', 'assets/react.js', 'assets/Login.js', 'assets/Form.js'] },
      { route: '/chat/:id', files: ['assets/index.js', 'assets/react.js', 'assets/Chat.js', 'assets/markdown.js', 'assets/Form.js'] },
    ]);
  });

  it('sums the gzip size of each file and flags the route over its budget', () => {
    const [login, chat] = measureRoutes({ manifest, budgets, readAsset });
    expect(login).toMatchObject({ route: '/login', gzipBytes: gzipOf('assets/index.js', 'assets/react.js', 'assets/Login.js', 'assets/Form.js'), ok: true });
    const chatBytes = gzipOf('assets/index.js', 'assets/react.js', 'assets/Chat.js', 'assets/markdown.js', 'assets/Form.js');
    expect(chat).toMatchObject({ route: '/chat/:id', gzipBytes: chatBytes, limitBytes: 100_000, ok: false });
    // Incompressible input: gzip adds a little, it never shrinks it.
    expect(chatBytes).toBeGreaterThan(118_000);
    const table = formatTable([login!, chat!]);
    expect(table).toMatch(/\/chat\/:id\s+1\d\d\.\d\s+100\.0\s+5\s+OVER$/m);
    // No route has a target: no target column.
    expect(table.split('\n')[0]).toMatch(/^route\s+JS kB gzip\s+budget kB\s+chunks$/);
  });

  it('prints the target of a route beside its budget, met or not yet, without failing on it', () => {
    const withTargets = {
      routes: [
        { route: '/login', pages: ['src/pages/Login.tsx'], limitKb: 200, targetKb: 200 },
        { route: '/chat/:id', pages: ['src/pages/Chat.tsx'], limitKb: 200, targetKb: 100 },
      ],
    };
    const [login, chat] = measureRoutes({ manifest, budgets: withTargets, readAsset });
    expect(login).toMatchObject({ ok: true, meetsTarget: true, targetBytes: 200_000 });
    expect(chat).toMatchObject({ ok: true, meetsTarget: false, targetBytes: 100_000 });
    const table = formatTable([login!, chat!]);
    expect(table).toMatch(/\/login\s+\d+\.\d\s+200\.0\s+4\s+OK\s+200\.0 met/);
    expect(table).toMatch(/\/chat\/:id\s+1\d\d\.\d\s+200\.0\s+5\s+OK\s+100\.0 not yet/);
  });

  it('refuses budgets that name a page the build does not have', () => {
    const broken = { routes: [{ route: '/', pages: ['src/pages/Home.tsx'], limitKb: 100 }] };
    expect(() => measureRoutes({ manifest, budgets: broken, readAsset })).toThrow('src/pages/Home.tsx is not in the manifest');
    const notLazy = { routes: [{ route: '/', pages: ['_Form.js'], limitKb: 100 }] };
    expect(() => measureRoutes({ manifest, budgets: notLazy, readAsset })).toThrow('not a lazily loaded chunk');
  });

  it('as a command prints the table and exits 1 when a route is over budget, 0 when all fit', async () => {
    const app = mkdtempSync(join(tmpdir(), 'size-budget-'));
    directories.push(app);
    mkdirSync(join(app, 'dist/.vite'), { recursive: true });
    mkdirSync(join(app, 'dist/assets'));
    for (const [file, bytes] of Object.entries(assets)) writeFileSync(join(app, 'dist', file), bytes);
    writeFileSync(join(app, 'dist/.vite/manifest.json'), JSON.stringify(manifest));
    writeFileSync(join(app, 'routeBudgets.json'), JSON.stringify(budgets));

    const over = await promisify(execFile)(process.execPath, [script, '--app', app]).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect('code' in over ? over.code : 0).toBe(1);
    expect(over.stdout).toMatch(/\/login\s+\d+\.\d\s+100\.0\s+4\s+OK/);
    expect(over.stderr).toContain('over budget: /chat/:id');

    writeFileSync(join(app, 'routeBudgets.json'), JSON.stringify({ routes: budgets.routes.map((budget) => ({ ...budget, limitKb: 200 })) }));
    const fits = await promisify(execFile)(process.execPath, [script, '--app', app]);
    expect(fits.stdout).toMatch(/\/chat\/:id\s+1\d\d\.\d\s+200\.0\s+5\s+OK/);
  });
});
