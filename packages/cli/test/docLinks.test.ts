/**
 * The repository documents itself: every relative link in README.md and docs/*.md names a file
 * of this repository, and nothing there points outside it (no absolute paths, no `../` that climbs
 * above the repository's root, no machine paths).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { linkTargets } from '../../../scripts/markdownLinks.mjs';

const repoRoot = resolve(fileURLToPath(new URL('../../../', import.meta.url)));
const documents = ['README.md', ...readdirSync(join(repoRoot, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#');
const insideRepo = (path: string) => {
  const fromRoot = relative(repoRoot, path);
  return fromRoot !== '' && !fromRoot.startsWith('..') && !isAbsolute(fromRoot);
};

describe('links of README.md and docs/', () => {
  it('finds the documents, the architecture page among them', () => {
    expect(documents).toContain('README.md');
    expect(documents).toContain('docs/ARCHITECTURE.md');
  });

  it.each(documents)('%s: every relative link resolves to a file of the repository', (document) => {
    const text = readFileSync(join(repoRoot, document), 'utf8');
    const broken: string[] = [];
    for (const target of linkTargets(text)) {
      if (isExternal(target)) continue;
      const path = decodeURI(target.replace(/[#?].*$/, ''));
      const file = resolve(dirname(join(repoRoot, document)), path);
      if (target.startsWith('/') || !insideRepo(file) || !existsSync(file)) broken.push(target);
    }
    expect(broken).toEqual([]);
  });

  it.each(documents)('%s: names no path outside the repository, in links or in code', (document) => {
    const text = readFileSync(join(repoRoot, document), 'utf8');
    const outside: string[] = [];
    // Relative paths that climb (`../…`), wherever they are written, stay inside the repository.
    for (const match of text.matchAll(/(?<![\w./-])((?:\.\.\/)+[\w@.-][\w@./-]*)/g)) {
      if (!insideRepo(resolve(dirname(join(repoRoot, document)), match[1]!))) outside.push(match[1]!);
    }
    // Paths of the machine the docs were written on.
    for (const match of text.matchAll(/(?<![\w.])(\/(?:work|home|Users|tmp|root)\/[^\s`)'"]*)/g)) outside.push(match[1]!);
    expect(outside).toEqual([]);
  });
});
