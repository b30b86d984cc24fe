import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * A library never restyles its host (docs/STYLE.md), checked on the sheet a host gets: theme.css
 * with its imports inlined as the bundlers do (`@import url(x) layer(confab)` becomes `@layer
 * confab { …x… }`), then read with a small tokenizer (comments and strings skipped, blocks nested
 * by their braces).
 */

// The sheet as published (src/theme); this test lives outside it so the package does not ship it.
const themeDirectory = join(dirname(fileURLToPath(import.meta.url)), '..', 'theme');
const rootClass = 'confab-root';
const layerName = 'confab';

interface StyleRule {
  selectors: string[];
  /** The at-rule preludes around the rule, outermost first ('@layer confab', '@media (…)'). */
  context: string[];
  declarations: Map<string, string>;
}

interface ParsedSheet {
  rules: StyleRule[];
  /** @keyframes and other at-rules with a block, with their context. */
  atRules: { prelude: string; context: string[] }[];
  /** Style rules found inside style rules (CSS nesting): not used, so listed to fail loudly. */
  nested: string[];
}

const importPattern = /@import\s+url\(\s*['"]?([^'")]+)['"]?\s*\)\s*([^;]*);/g;

/** theme.css with every import inlined in its layer; throws for an import without layer(confab). */
function concatenatedTheme(): string {
  const entry = readFileSync(join(themeDirectory, 'theme.css'), 'utf8');
  return entry.replace(importPattern, (_match, file: string, conditions: string) => {
    const layer = /^layer\(\s*([\w-]+)\s*\)$/.exec(conditions.trim());
    if (layer?.[1] !== layerName) throw new Error(`theme.css imports ${file} outside the ${layerName} layer: '${conditions}'`);
    return `@layer ${layerName} {\n${readFileSync(join(themeDirectory, file), 'utf8')}\n}`;
  });
}

function stripComments(css: string): string {
  return css.replace(/\/\*[\s\S]*?\*\//g, ' ');
}

/** Splits on `separator` outside (), [] and strings. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let current = '';
  for (const character of text) {
    if (quote !== null) {
      if (character === quote) quote = null;
    } else if (character === '"' || character === "'") quote = character;
    else if (character === '(' || character === '[') depth += 1;
    else if (character === ')' || character === ']') depth -= 1;
    else if (character === separator && depth === 0) {
      parts.push(current.trim());
      current = '';
      continue;
    }
    current += character;
  }
  if (current.trim() !== '') parts.push(current.trim());
  return parts;
}

function parseDeclarations(body: string): Map<string, string> {
  const declarations = new Map<string, string>();
  for (const declaration of splitTopLevel(body, ';')) {
    const colon = declaration.indexOf(':');
    if (colon > 0) declarations.set(declaration.slice(0, colon).trim(), declaration.slice(colon + 1).trim());
  }
  return declarations;
}

function parseSheet(source: string): ParsedSheet {
  const css = stripComments(source);
  const sheet: ParsedSheet = { rules: [], atRules: [], nested: [] };
  // Open blocks: at-rules keep their prelude; a style rule keeps where its body starts.
  const stack: { prelude: string; styleRule: boolean; bodyStart: number }[] = [];
  let preludeStart = 0;
  let quote: string | null = null;
  for (let index = 0; index < css.length; index += 1) {
    const character = css[index];
    if (quote !== null) {
      if (character === quote) quote = null;
      continue;
    }
    if (character === '"' || character === "'") {
      quote = character;
    } else if (character === '{') {
      const prelude = css.slice(preludeStart, index).trim();
      const insideKeyframes = stack.some((block) => block.prelude.startsWith('@keyframes'));
      const styleRule = !prelude.startsWith('@') && !insideKeyframes;
      if (styleRule && stack.some((block) => block.styleRule)) sheet.nested.push(prelude);
      if (prelude.startsWith('@')) sheet.atRules.push({ prelude, context: stack.map((block) => block.prelude) });
      stack.push({ prelude, styleRule, bodyStart: index + 1 });
      preludeStart = index + 1;
    } else if (character === '}') {
      const block = stack.pop();
      if (block === undefined) throw new Error(`Unbalanced '}' at ${index}`);
      if (block.styleRule) {
        sheet.rules.push({
          selectors: splitTopLevel(block.prelude, ','),
          context: stack.filter((open) => !open.styleRule).map((open) => open.prelude),
          declarations: parseDeclarations(css.slice(block.bodyStart, index)),
        });
      }
      preludeStart = index + 1;
    } else if (character === ';' && (stack.length === 0 || !stack[stack.length - 1]?.styleRule)) {
      // A statement at-rule (`@layer confab;`) ends here.
      preludeStart = index + 1;
    }
  }
  if (stack.length > 0) throw new Error('Unclosed block');
  return sheet;
}

/** The compounds of a complex selector and the combinators between them. */
function compoundsOf(selector: string): { compounds: string[]; combinators: string[] } {
  const compounds: string[] = [];
  const combinators: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let current = '';
  let pending: string | null = null;
  const flush = () => {
    if (current === '') return;
    if (compounds.length > 0) combinators.push(pending ?? ' ');
    compounds.push(current);
    current = '';
    pending = null;
  };
  for (const character of selector) {
    if (quote !== null) {
      if (character === quote) quote = null;
      current += character;
      continue;
    }
    if (character === '"' || character === "'") quote = character;
    if (character === '(' || character === '[') depth += 1;
    if (character === ')' || character === ']') depth -= 1;
    if (depth === 0 && /[\s>+~]/.test(character)) {
      flush();
      if (character !== ' ' && character !== '\n') pending = character;
      continue;
    }
    current += character;
  }
  flush();
  return { compounds, combinators };
}

const confabClass = new RegExp(`\\.(?:${rootClass}|cf-[\\w-]+)(?![\\w-])`);

/**
 * A compound only Confab's markup can match: it names the root class or a `cf-` class at its
 * top level, or it is `:where(…)` / `:is(…)` whose every argument is such a selector.
 */
function isConfabCompound(compound: string): boolean {
  const withoutFunctions = compound.replace(/:(?:where|is|not|has|nth-[\w-]+)\((?:[^()]|\([^()]*\))*\)/g, '');
  if (confabClass.test(withoutFunctions)) return true;
  const scopingFunction = /^:(?:where|is)\(((?:[^()]|\([^()]*\))*)\)/.exec(compound);
  if (scopingFunction?.[1] === undefined) return false;
  return splitTopLevel(scopingFunction[1], ',').every((argument) => isScopedSelector(argument));
}

/**
 * Scoped: the selector starts inside Confab (its first compound is Confab's), and a sibling
 * combinator never leads out of it: siblings of the first element may be the host's, so the
 * element the rest of the selector descends from must be Confab's too. (Siblings met after a
 * descendant or child combinator stay inside the first element.)
 */
function isScopedSelector(selector: string): boolean {
  const { compounds, combinators } = compoundsOf(selector.trim());
  const first = compounds[0];
  if (first === undefined || !isConfabCompound(first)) return false;
  const firstDescent = combinators.findIndex((combinator) => combinator === ' ' || combinator === '>');
  const anchor = compounds[firstDescent === -1 ? compounds.length - 1 : firstDescent];
  return anchor !== undefined && isConfabCompound(anchor);
}

const customProperties = (rule: StyleRule) => [...rule.declarations.keys()].filter((name) => name.startsWith('--')).sort();

describe('theme.css', () => {
  const source = concatenatedTheme();
  const sheet = parseSheet(source);

  it('reads as a sheet of many rules (the parser saw it)', () => {
    expect(sheet.rules.length).toBeGreaterThan(300);
    expect(sheet.nested).toEqual([]);
  });

  it('puts every rule and every at-rule inside the confab cascade layer', () => {
    const outsideLayer = sheet.rules.filter((rule) => rule.context[0] !== `@layer ${layerName}`).map((rule) => rule.selectors.join(', '));
    expect(outsideLayer).toEqual([]);
    const atRulesOutside = sheet.atRules.filter((rule) => rule.prelude !== `@layer ${layerName}` && rule.context[0] !== `@layer ${layerName}`);
    expect(atRulesOutside.map((rule) => rule.prelude)).toEqual([]);
    // Nothing but the layer statement and the layered imports in the entry file itself.
    const entryRest = stripComments(readFileSync(join(themeDirectory, 'theme.css'), 'utf8'))
      .replace(importPattern, '')
      .replace(`@layer ${layerName};`, '')
      .trim();
    expect(entryRest).toBe('');
  });

  it('scopes every selector under the root class or Confab’s cf- classes', () => {
    const unscoped = sheet.rules.flatMap((rule) => rule.selectors.filter((selector) => !isScopedSelector(selector)));
    expect(unscoped).toEqual([]);
  });

  it('has no global rule: no *, html, body, a, button or :root selector outside the root', () => {
    const globalSelector = /^(?:\*|html|body|:root|a|button|input|select|textarea|h[1-6]|p|ul|ol|img)(?![\w.-])/;
    const globals = sheet.rules.flatMap((rule) => rule.selectors.filter((selector) => globalSelector.test(selector.trim())));
    expect(globals).toEqual([]);
    // Element rules appear only below the root (`:where(.confab-root) a`), never as the first compound.
    const rootRules = sheet.rules.filter((rule) => rule.selectors.some((selector) => selector.includes(rootClass)));
    expect(rootRules.length).toBeGreaterThan(0);
  });

  it('declares the design tokens on the root class, never on :root', () => {
    const tokenRules = sheet.rules.filter((rule) => customProperties(rule).length > 0);
    for (const rule of tokenRules) {
      for (const selector of rule.selectors) expect(selector.startsWith(`.${rootClass}`)).toBe(true);
    }
  });

  it('defines the same custom properties in the light and the dark theme', () => {
    const light = sheet.rules.find((rule) => rule.selectors.includes(`.${rootClass}[data-confab-theme='light']`));
    const dark = sheet.rules.find((rule) => rule.selectors.length === 1 && rule.selectors[0] === `.${rootClass}[data-confab-theme='dark']`);
    const auto = sheet.rules.find(
      (rule) => rule.selectors[0] === `.${rootClass}[data-confab-theme='auto']` && rule.context.includes('@media (prefers-color-scheme: dark)'),
    );
    if (light === undefined || dark === undefined || auto === undefined) throw new Error('light, dark and auto-dark theme blocks expected');
    // The light block is also the default: plain .confab-root.
    expect(light.selectors).toContain(`.${rootClass}`);
    expect(customProperties(light).length).toBeGreaterThan(20);
    expect(customProperties(dark)).toEqual(customProperties(light));
    // 'auto' on a dark system is exactly the dark theme.
    expect([...auto.declarations]).toEqual([...dark.declarations]);
    expect(light.declarations.get('color-scheme')).toBe('light');
    expect(dark.declarations.get('color-scheme')).toBe('dark');
  });

  it('defines every token the sheet reads without a fallback', () => {
    const defined = new Set(sheet.rules.flatMap(customProperties));
    const read = [...source.matchAll(/var\(\s*(--cf-[\w-]+)\s*\)/g)].map((match) => match[1]);
    expect([...new Set(read.filter((name) => name !== undefined && !defined.has(name)))]).toEqual([]);
  });
});

describe('the scoping rule itself', () => {
  it.each(['.confab-root', ':where(.confab-root) a', '.cf-button', 'a.cf-chip', '.cf-card + .cf-card', ':where(.cf-a, .cf-b):focus-visible', '.cf-x > span:nth-child(2)', '.cf-segmented button + button'])(
    'accepts %s',
    (selector) => expect(isScopedSelector(selector)).toBe(true),
  );
  it.each(['*', 'body', 'a', ':root', 'html .cf-x', '.cf-x + p', '.cf-x ~ .cf-y ~ p span', ':where(a, .cf-b)', '.my-cf-x', 'button:focus-visible'])('rejects %s', (selector) =>
    expect(isScopedSelector(selector)).toBe(false),
  );
});
