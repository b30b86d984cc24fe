import type { Mention } from '@confab/client/protocol';
import { maxMessageLength } from '@confab/client/protocol';
import type { Services } from '../../services/index';
import { addKeyHint, AiError, type AiGateway } from '../ai/types';
import { createFetcher, decodeText, isPdf, textPolicy, type FetchedBody } from '../tools/fetcher';
import { readPdfText } from '../tools/pdfText';
import { addSearchProviderHint, configuredSearchProviders } from '../tools/search/providers';
import { plainText, SearchError, type SearchHit, type SearchProvider } from '../tools/search/types';
import { WorkspaceSearch } from '../tools/search/workspace';
import type { HostedAgentHandler, InProcessReply } from '../transports/inProcess';
import { mergeRuns, searchResultsMessage, type RankedHit, type SearchRun } from './deepResults';
import { requestText } from './requestText';

export interface DeepAgentOptions {
  ai: AiGateway;
  /** The configured web search providers; none means the chat's workspace alone. */
  providers: readonly SearchProvider[];
  /** The chat's drops and files (agents/tools/search/workspace.ts). */
  workspace: { search(chatId: string, query: string, limit: number): Promise<SearchHit[]> };
  /**
   * The text of a web page, through the guarded fetcher; absent: the report works from the
   * search snippets alone.
   */
  readPage?: (url: string) => Promise<string>;
  now?: () => Date;
  /** Hits asked of each provider per query. Default 8. */
  hitsPerSearch?: number;
  /** Top web results whose pages are read for the report. Default 3. */
  pagesToRead?: number;
}

export const deepHelp = [
  'I research a question: I search the web (the providers this server has) and this chat’s drops and files, post the results, and with an AI key write a short report citing them.',
  '- `@deep what do heat pumps cost to run in winter?`',
  'Without a key I search for your words as they are and post the results.',
].join('\n');

/** The request without the leading mentions (and @deep anywhere). */
export function deepRequest(content: string, username = 'deep'): string {
  return requestText(content, username).replace(/\s+/g, ' ');
}

/** The model's plan, one query a line (bullets, numbers and quotes removed); at most 3. */
export function plannedQueries(text: string, fallback: string): string[] {
  const queries = text
    .split('\n')
    .map((line) => line.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '').replace(/^["'`]+|["'`]+$/g, '').trim())
    .filter((line) => line !== '' && line.length <= 200 && !/^(queries|search queries)\s*:?$/i.test(line));
  const unique = [...new Map(queries.map((query) => [query.toLowerCase(), query])).values()].slice(0, 3);
  return unique.length === 0 ? [fallback] : unique;
}

const planSystem = [
  'You plan web searches for a research question asked in a group chat.',
  'Answer with one to three short search-engine queries that together cover the question, one per line, and nothing else.',
].join('\n');

const reportSystem = [
  'You are @deep, a research assistant in a group chat. Write a concise report in Markdown that answers the question from the numbered sources given, and only from them.',
  'Cite every claim with its source as a Markdown link whose text is the number in brackets, e.g. [[1]](https://example.org/page). Say plainly when the sources do not answer something.',
  'Keep it under 400 words; no title, no list of sources at the end (one is added for you).',
].join('\n');

/** Source numbers and texts the model reports from: snippets, and the pages read. */
function sourcesText(sources: readonly RankedHit[], pages: ReadonlyMap<string, string>): string {
  return sources
    .map((source, index) => {
      const page = pages.get(source.url);
      return [`[${index + 1}] ${source.title}`, `URL: ${source.url}`, `Snippet: ${source.snippet}`, ...(page === undefined ? [] : [`Page text (start): ${page}`])].join('\n');
    })
    .join('\n\n');
}

function sourcesList(sources: readonly RankedHit[]): string {
  return ['**Sources**', ...sources.map((source, index) => `${index + 1}. [${source.title.replace(/[[\]]/g, '')}](${source.url})`)].join('\n');
}

/** A stream that stops taking text before it would pass the message limit. */
function boundedStream(reply: InProcessReply, budget = maxMessageLength - 200) {
  let stream: ReturnType<InProcessReply['stream']> | undefined;
  let written = 0;
  return {
    get started() {
      return stream !== undefined;
    },
    write(text: string) {
      const room = budget - written;
      if (room <= 0 || text === '') return;
      stream ??= reply.stream();
      const piece = text.length > room ? `${text.slice(0, Math.max(0, room - 1))}…` : text;
      written += piece.length;
      stream.write(piece);
    },
    async end(options?: { cutOff?: boolean }) {
      return stream?.end(options);
    },
  };
}

/**
 * The @deep handler: plans up to three queries with the model (without a key, the
 * message is the query), searches every configured provider and the chat's workspace, posts the
 * merged results as a search-results message, then, with a key, streams a report citing them.
 */
export function createDeepHandler(options: DeepAgentOptions): HostedAgentHandler {
  const now = options.now ?? (() => new Date());
  const hitsPerSearch = options.hitsPerSearch ?? 8;
  const pagesToRead = options.pagesToRead ?? 3;

  const search = async (chatId: string, queries: readonly string[]) => {
    const failures = new Map<string, string>();
    const jobs: Promise<SearchRun | undefined>[] = [];
    for (const query of queries) {
      jobs.push(options.workspace.search(chatId, query, 5).then((hits) => ({ query, source: 'workspace', hits })));
      for (const provider of options.providers) {
        jobs.push(
          provider.search(query, { count: hitsPerSearch }).then(
            (hits) => ({ query, source: provider.name, hits }),
            (error: unknown) => {
              failures.set(provider.name, error instanceof SearchError ? error.message : `${provider.name} failed.`);
              return undefined;
            },
          ),
        );
      }
    }
    const runs = (await Promise.all(jobs)).filter((run): run is SearchRun => run !== undefined);
    return { runs, failures: [...failures.values()], searchesPerformed: jobs.length };
  };

  const plan = async (mention: Mention, question: string): Promise<string[]> => {
    try {
      const answer = await options.ai.complete({ invokerId: mention.author_id, system: planSystem, messages: [{ role: 'user', content: question }], maxToolRounds: 0 });
      return plannedQueries(answer.text, question);
    } catch {
      // The report will say what failed; the search goes on with the question itself.
      return [question];
    }
  };

  const readPages = async (hits: readonly RankedHit[]): Promise<Map<string, string>> => {
    const pages = new Map<string, string>();
    const readPage = options.readPage;
    if (readPage === undefined) return pages;
    const web = hits.filter((hit) => hit.source !== 'workspace').slice(0, pagesToRead);
    await Promise.all(
      web.map(async (hit) => {
        const text = await readPage(hit.url).catch(() => '');
        if (text.trim() !== '') pages.set(hit.url, text.replace(/\s+/g, ' ').trim().slice(0, 3000));
      }),
    );
    return pages;
  };

  const report = async (mention: Mention, question: string, hits: readonly RankedHit[], notes: readonly string[], reply: InProcessReply) => {
    const sources = hits.slice(0, 10);
    reply.status('is reading sources…');
    const pages = await readPages(sources);
    reply.status('is writing the report…');
    const stream = boundedStream(reply);
    const tail = `\n\n${sourcesList(sources)}${notes.length === 0 ? '' : `\n\n${notes.join('\n')}`}`;
    try {
      const answer = await options.ai.complete({
        invokerId: mention.author_id,
        system: reportSystem,
        messages: [{ role: 'user', content: `Question: ${question}\n\nSources:\n\n${sourcesText(sources, pages)}` }],
        maxToolRounds: 0,
        onText: (delta) => stream.write(delta),
      });
      if (!stream.started) stream.write(answer.text.trim() === '' ? 'I could not write a report from these results.' : answer.text);
      // The sources list always fits: the stream's budget leaves room for it.
      stream.write(tail);
      await stream.end();
    } catch (error) {
      const text = error instanceof AiError ? error.message : 'I could not reach the AI provider for the report; the results above are what I found.';
      if (stream.started) {
        // The report broke off: what arrived stays, marked cut off, with why.
        stream.write(`\n\n${text}`);
        await stream.end({ cutOff: true });
      } else {
        await reply.send(`${text}${notes.length === 0 ? '' : `\n\n${notes.join('\n')}`}`);
      }
    }
  };

  return async (mention, reply) => {
    const question = deepRequest(mention.content);
    if (question === '' || /^(help|\?)$/i.test(question)) {
      await reply.send(deepHelp);
      return;
    }
    reply.status('is searching…');
    const withKey = await options.ai.available(mention.author_id);
    const queries = withKey ? await plan(mention, question) : [question];
    reply.status('is searching…');
    const { runs, failures, searchesPerformed } = await search(mention.chat_id, queries);
    const hits = mergeRuns(runs);
    const notes = [...failures, ...(options.providers.length === 0 ? [addSearchProviderHint] : [])];
    if (hits.length === 0) {
      const where = options.providers.length === 0 ? 'in this chat' : 'on the web or in this chat';
      await reply.send([`I found nothing ${where} for ${queries.map((query) => `“${query}”`).join(', ')}.`, ...notes].join('\n\n'));
      return;
    }
    const querySummary = queries.length === 1 ? (queries[0] ?? question) : `${question} (searched: ${queries.join('; ')})`;
    await reply.send(JSON.stringify(searchResultsMessage({ querySummary, searchesPerformed, createdAt: now(), hits })));
    if (withKey) {
      await report(mention, question, hits, notes, reply);
      return;
    }
    const count = `${hits.length} result${hits.length === 1 ? '' : 's'}`;
    await reply.send([`I found ${count} for “${question}” above. With an AI key I would also plan better searches and write a report citing them. ${addKeyHint}`, ...notes].join('\n\n'));
  };
}

/** The readable text of a fetched page: HTML without its scripts, styles and tags. */
export function pageText(text: string, mediaType: string): string {
  if (!/html|xml/.test(mediaType)) return text;
  return plainText(text.replace(/<(script|style|noscript|svg)\b[\s\S]*?<\/\1\s*>/gi, ' ').replace(/<!--[\s\S]*?-->/g, ' '));
}

/** What @deep reads of a fetched source: a PDF's text (title first), or a page's readable text. */
export async function fetchedText(fetched: FetchedBody): Promise<string> {
  if (!isPdf(fetched)) return pageText(decodeText(fetched), fetched.mediaType);
  const pdf = await readPdfText(fetched.body, { maxPages: 10, maxCharacters: 20_000 });
  return [pdf.title, ...pdf.paragraphs].filter((part) => part !== '').join('\n\n');
}

/** The built-in @deep of a server: its configured providers, the chat's workspace, pages read through the guarded fetcher. */
export function createDeepAgent(services: Services, ai: AiGateway): HostedAgentHandler {
  const { config, store } = services.context;
  const fetcher = createFetcher({ allowHosts: config.fetchAllowHosts });
  return createDeepHandler({
    ai,
    providers: configuredSearchProviders(config),
    workspace: new WorkspaceSearch(store.database, { files: services.context.files, publicUrl: services.context.publicUrl, now: config.now }),
    readPage: async (url) => fetchedText(await fetcher.fetch(url, textPolicy)),
    now: config.now,
  });
}
