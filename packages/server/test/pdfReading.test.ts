/**
 * PDF text (docs/SECURITY.md H7: the guarded fetcher takes text, HTML and PDF text only): real
 * PDFs, written by hand here, are read with pdfjs-dist (no worker, no canvas): their title and
 * text, by the fetcher's readers, by @browse from a local site and by @deep's source reader.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WireMessage } from '@confab/client/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFetched } from '../src/agents/hosted/browse';
import { fetchedText } from '../src/agents/hosted/deep';
import { createFetcher } from '../src/agents/tools/fetcher';
import { looksLikePdf, PdfTextError, readPdfText } from '../src/agents/tools/pdfText';
import { databaseVariants } from './support/databases';
import { startFakeOpenAI, type FakeOpenAI } from './support/fakeOpenAI';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { startTestServer, type TestServer } from './support/testServer';
import { authenticatedSocket } from './support/wsClient';

/** PDF string literal text: backslashes and parentheses escaped. */
const literal = (text: string) => text.replace(/[\\()]/g, (character) => `\\${character}`);

/**
 * A small valid PDF: one page per entry of `pages`, each a list of lines (an empty line leaves a
 * paragraph gap), set in Helvetica; `title` goes into the document information dictionary.
 */
export function makePdf(pages: string[][], title?: string): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body);
  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(''); // the page tree, written once the pages have numbers
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const kids: number[] = [];
  for (const lines of pages) {
    let y = 740;
    const operations = ['BT', '/F1 12 Tf'];
    for (const line of lines) {
      if (line !== '') operations.push(`1 0 0 1 72 ${y} Tm (${literal(line)}) Tj`);
      y -= line === '' ? 10 : 16;
    }
    operations.push('ET');
    const stream = operations.join('\n');
    add(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`);
    add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${objects.length} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`);
    kids.push(objects.length);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((kid) => `${kid} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  if (title !== undefined) add(`<< /Title (${literal(title)}) /Producer (Confab tests) >>`);
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${title === undefined ? '' : ` /Info ${objects.length} 0 R`} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const report = makePdf(
  [
    ['Quarterly Solar Report', '', 'The roof panels produced 4 MWh in June, more than any month before.', 'The inverter was replaced in May.', '', 'Next quarter we add a battery.'],
    ['Appendix: monthly output per panel row.'],
  ],
  'Solar Report Q2 (2026)',
);

describe('PDF text', () => {
  it('reads the title from the metadata, the text as paragraphs, and counts the pages', async () => {
    expect(looksLikePdf(report)).toBe(true);
    const pdf = await readPdfText(report);
    expect(pdf.title).toBe('Solar Report Q2 (2026)');
    expect(pdf.pageCount).toBe(2);
    expect(pdf.truncated).toBe(false);
    expect(pdf.paragraphs).toEqual([
      'Quarterly Solar Report',
      'The roof panels produced 4 MWh in June, more than any month before. The inverter was replaced in May.',
      'Next quarter we add a battery.',
      'Appendix: monthly output per panel row.',
    ]);
  });

  it('takes the first line as the title when there is none, and stops at the page limit', async () => {
    const untitled = makePdf([['Minutes of the board'], ['Page two'], ['Page three']]);
    const pdf = await readPdfText(untitled, { maxPages: 2 });
    expect(pdf.title).toBe('Minutes of the board');
    expect(pdf.paragraphs).toEqual(['Minutes of the board', 'Page two']);
    expect(pdf).toMatchObject({ pageCount: 3, truncated: true });
  });

  it('says a damaged PDF is damaged', async () => {
    await expect(readPdfText(Buffer.from('%PDF-1.7\nnothing else'))).rejects.toBeInstanceOf(PdfTextError);
    await expect(readPdfText(Buffer.from('%PDF-1.7\nnothing else'))).rejects.toThrow('The PDF is damaged or not a PDF I can read.');
  });
});

/** A local site that counts requests. */
async function startSite(pages: Record<string, [string, Buffer | string]>): Promise<{ port: number; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((incoming, response) => {
    requests.push(incoming.url ?? '');
    const page = pages[incoming.url ?? ''];
    if (page === undefined) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': page[0] }).end(page[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('PDFs through the guarded fetcher', () => {
  let site: Awaited<ReturnType<typeof startSite>>;
  let base: string;

  beforeAll(async () => {
    site = await startSite({ '/report.pdf': ['application/pdf', report], '/broken.pdf': ['application/pdf', '%PDF-1.7'] });
    base = `http://127.0.0.1:${site.port}`;
  });

  afterAll(async () => {
    await site?.close();
  });

  it('fetches a PDF from an allowed site and reads it as a page (@browse) and as a source (@deep)', async () => {
    const fetcher = createFetcher({ allowHosts: [`127.0.0.1:${site.port}`] });
    const fetched = await fetcher.fetch(`${base}/report.pdf`);
    expect(fetched.mediaType).toBe('application/pdf');
    const page = await readFetched(fetched);
    expect(page).toMatchObject({ title: 'Solar Report Q2 (2026)', format: 'PDF, 2 pages', url: `${base}/report.pdf` });
    expect(page.paragraphs[1]).toContain('4 MWh in June');
    const text = await fetchedText(fetched);
    expect(text.startsWith('Solar Report Q2 (2026)\n\nQuarterly Solar Report')).toBe(true);
    expect(text).toContain('Next quarter we add a battery.');
  });

  it('still refuses a PDF at a private address without the allow-list, before reaching it', async () => {
    const before = site.requests.length;
    await expect(createFetcher().fetch(`${base}/report.pdf`)).rejects.toMatchObject({ code: 'refused_address' });
    expect(site.requests.length).toBe(before);
  });
});

const [sqlite] = await databaseVariants();

describe('@browse reads a PDF', () => {
  let site: Awaited<ReturnType<typeof startSite>>;
  let openai: FakeOpenAI;
  let testServer: TestServer;
  let alice: RegisteredUser;
  let keyed: RegisteredUser;

  async function askBrowse(user: RegisteredUser, text: string): Promise<WireMessage> {
    const chat = await createChat(user, { name: 'Reports' });
    const socket = await authenticatedSocket(testServer.url, user.pb.authStore.token);
    try {
      await socket.join(chat.id);
      await postMessage(user, chat.id, text);
      for (;;) {
        const message = await socket.nextMessage(chat.id, 15_000);
        if (message.author_username === 'browse') return message;
      }
    } finally {
      await socket.close();
    }
  }

  beforeAll(async () => {
    site = await startSite({ '/report.pdf': ['application/pdf', report], '/broken.pdf': ['application/pdf', '%PDF-1.7'] });
    openai = await startFakeOpenAI();
    testServer = await startTestServer(sqlite!, { fetchAllowHosts: [`127.0.0.1:${site.port}`], openaiBaseUrl: openai.baseUrl, openaiModel: 'gpt-test' });
    alice = await registerUser(testServer, { name: 'Alice' });
    keyed = await registerUser(testServer, { name: 'Keyed' });
    await keyed.pb.collection('users').update(keyed.record.id, { openai_api_key: 'sk-keyed-own-key-5678' });
  });

  afterAll(async () => {
    await testServer?.close();
    await openai?.close();
    await site?.close();
  });

  it("without a key: the PDF's title and opening text; a damaged PDF is said to be damaged", async () => {
    const url = `http://127.0.0.1:${site.port}/report.pdf`;
    const preview = await askBrowse(alice, `@browse ${url}`);
    expect(preview.content).toContain('**Solar Report Q2 (2026)**');
    expect(preview.content).toContain('_PDF, 2 pages_');
    expect(preview.content).toContain('The roof panels produced 4 MWh in June');
    expect(preview.content).toContain(`Source: <${url}>`);
    const broken = await askBrowse(alice, `@browse http://127.0.0.1:${site.port}/broken.pdf`);
    expect(broken.content).toBe('The PDF is damaged or not a PDF I can read.');
  });

  it("with a key: a summary grounded in the PDF's text", async () => {
    openai.enqueue({ kind: 'text', chunks: ['4 MWh in June.'] });
    const url = `http://127.0.0.1:${site.port}/report.pdf`;
    const answer = await askBrowse(keyed, `@browse ${url} how much did the panels produce in June?`);
    expect(answer.content).toBe(`4 MWh in June.\n\nSource: [Solar Report Q2 (2026)](<${url}>)`);
    const messages = JSON.stringify(openai.requests.at(-1)?.body['messages']);
    expect(messages).toContain('The roof panels produced 4 MWh in June');
    expect(messages).toContain('Format: PDF, 2 pages');
  });
});
