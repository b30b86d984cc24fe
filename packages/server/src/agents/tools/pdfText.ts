import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The text of a PDF the guarded fetcher brought (docs/SECURITY.md H7: text, HTML and PDF text
 * only), with pdfjs-dist's legacy build for Node: no worker thread (its "fake worker" runs in this
 * process), no canvas, no rendering. A PDF is hostile input: font programs are never turned into
 * code (`isEvalSupported: false`), XFA forms and font loading are off, and reading stops after
 * `maxPages` pages, `maxCharacters` characters or `timeoutMs`, whichever comes first.
 */

export interface PdfText {
  /** The document's Title metadata, else its first line; '' when it has no text. */
  title: string;
  /** The text as paragraphs, in page order. */
  paragraphs: string[];
  /** Pages in the document (not all may have been read). */
  pageCount: number;
  /** True when the limits stopped the reading before the end. */
  truncated: boolean;
}

export interface PdfTextOptions {
  maxPages?: number;
  maxCharacters?: number;
  timeoutMs?: number;
}

/** A PDF that could not be read; `message` is worded for a chat reply. */
export class PdfTextError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PdfTextError';
  }
}

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let loading: Promise<PdfJs> | undefined;

/** pdfjs-dist is loaded on the first PDF only (it is large, and most servers never read one). */
function pdfjs(): Promise<PdfJs> {
  loading ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return loading;
}

/** The package's predefined CMaps (CJK and other CID-keyed fonts need them to map glyphs to text). */
function cMapDirectory(): string | undefined {
  try {
    return `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'cmaps')}/`;
  } catch {
    return undefined;
  }
}

/** Whether `body` starts like a PDF (a server may send one as application/octet-stream). */
export function looksLikePdf(body: Uint8Array): boolean {
  return Buffer.from(body.subarray(0, 1024)).toString('latin1').includes('%PDF-');
}

/** What pageLines needs of pdfjs's TextItem. */
type TextItem = Pick<import('pdfjs-dist/types/src/display/api').TextItem, 'str' | 'hasEOL' | 'transform' | 'height'>;

/** One page's text as lines, a blank line ('') where the vertical gap says a new paragraph starts. */
function pageLines(items: readonly TextItem[]): string[] {
  const lines: string[] = [];
  let line = '';
  let lastY: number | undefined;
  let lastHeight = 0;
  const flush = () => {
    const text = line.replace(/\s+/g, ' ').trim();
    if (text !== '') lines.push(text);
    line = '';
  };
  for (const item of items) {
    const y = item.transform[5] ?? 0;
    const height = Math.abs(item.height || item.transform[3] || 0);
    if (lastY !== undefined && Math.abs(lastY - y) > Math.max(lastHeight, height, 1) * 0.5) {
      flush();
      // More than a line and a half between baselines: a new paragraph.
      if (Math.abs(lastY - y) > Math.max(lastHeight, height, 1) * 1.8) lines.push('');
    }
    line += item.str;
    if (item.hasEOL) flush();
    lastY = y;
    if (height > 0) lastHeight = height;
  }
  flush();
  return lines;
}

/** Lines (with '' between paragraphs) joined into paragraphs; a hyphen at a line's end joins the word. */
function paragraphsOf(lines: readonly string[]): string[] {
  const paragraphs: string[] = [];
  let current = '';
  for (const line of lines) {
    if (line === '') {
      if (current !== '') paragraphs.push(current);
      current = '';
      continue;
    }
    current = current === '' ? line : /[A-Za-z]-$/.test(current) ? `${current.slice(0, -1)}${line}` : `${current} ${line}`;
  }
  if (current !== '') paragraphs.push(current);
  return paragraphs;
}

export async function readPdfText(body: Uint8Array, options: PdfTextOptions = {}): Promise<PdfText> {
  const maxPages = options.maxPages ?? 50;
  const maxCharacters = options.maxCharacters ?? 200_000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const { getDocument } = await pdfjs();
  const cMapUrl = cMapDirectory();
  const task = getDocument({
    // pdfjs takes the buffer over (transfers it): it gets a copy.
    data: new Uint8Array(body),
    isEvalSupported: false,
    enableXfa: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    stopAtErrors: false,
    verbosity: 0,
    ...(cMapUrl === undefined ? {} : { cMapUrl, cMapPacked: true }),
  });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new PdfTextError(`The PDF took longer than ${timeoutMs / 1000} s to read; I stopped.`)), timeoutMs);
  });
  try {
    const read = async (): Promise<PdfText> => {
      let document: Awaited<typeof task.promise>;
      try {
        document = await task.promise;
      } catch (error) {
        const name = (error as { name?: string }).name ?? '';
        throw new PdfTextError(name === 'PasswordException' ? 'The PDF is protected by a password.' : 'The PDF is damaged or not a PDF I can read.');
      }
      const metadata = await document.getMetadata().catch(() => undefined);
      const info = (metadata?.info ?? {}) as Record<string, unknown>;
      const metadataTitle = typeof info['Title'] === 'string' ? info['Title'].replace(/\s+/g, ' ').trim() : '';
      const lines: string[] = [];
      let characters = 0;
      let truncated = document.numPages > maxPages;
      for (let number = 1; number <= Math.min(document.numPages, maxPages); number += 1) {
        const page = await document.getPage(number);
        const content = await page.getTextContent();
        page.cleanup();
        const items = content.items.filter((item) => 'str' in item) as TextItem[];
        const pageText = pageLines(items);
        lines.push(...pageText, '');
        characters += pageText.reduce((sum, text) => sum + text.length + 1, 0);
        if (characters > maxCharacters) {
          truncated = true;
          break;
        }
      }
      const paragraphs: string[] = [];
      let total = 0;
      for (const paragraph of paragraphsOf(lines)) {
        if (total + paragraph.length > maxCharacters) {
          paragraphs.push(paragraph.slice(0, Math.max(0, maxCharacters - total)));
          break;
        }
        paragraphs.push(paragraph);
        total += paragraph.length;
      }
      const firstLine = lines.find((text) => text !== '') ?? '';
      const title = /^(untitled|microsoft word - .*|document\d*)$/i.test(metadataTitle) || metadataTitle === '' ? firstLine.slice(0, 200) : metadataTitle;
      return { title, paragraphs, pageCount: document.numPages, truncated };
    };
    return await Promise.race([read(), deadline]);
  } finally {
    clearTimeout(timer);
    await task.destroy().catch(() => undefined);
  }
}
