import type { Mention } from '@confab/client/protocol';
import type { Services } from '../../services/index';
import { fileKey } from '../../services/files/fileStore';
import { addKeyHint, AiError, type AiGateway, type AiTool } from '../ai/types';
import type { ChatDataFile, QueryFailure, QueryResult } from '../tools/duckdb';
import { defaultQueryTimeoutMs } from '../tools/queryLimits';
import { defaultSheetLimits } from '../tools/sheetSize';
import { looksLikeSql } from '../tools/sqlCheck';
import { finishReply, type HostedAgentHandler, type InProcessReply, type InProcessReplyStream } from '../transports/inProcess';
import { chartFor, markdownTable, sqlBlock, tablesText } from './dataFormat';
import type { DataJobOutcome, DataJobs, OpenedData } from './dataJobs';
import { requestText } from './requestText';

export interface DataAgentOptions {
  /** The files of the chat the question was asked in (and only those). */
  files: (chatId: string) => Promise<ChatDataFile[]>;
  /**
   * The job queue every question that loads files goes through: how many run at once, the
   * whole-job deadline, one process per job (docs/SECURITY.md H11).
   */
  jobs: DataJobs;
  /** Questions in words need it and a key; without either, SQL and `tables` still work. */
  ai?: AiGateway;
  /** Each query is interrupted after this long, inside the job's process. Default 10,000 ms. */
  timeoutMs?: number;
  /** Failed queries the model may retry with the error. Default 2. */
  maxRetries?: number;
}

const seconds = (milliseconds: number) => `${Math.round(milliseconds / 100) / 10} s`;

/** The `@data help` reply, with this server's time limits. */
export function dataHelp(queryTimeoutMs: number, jobDeadlineMs: number): string {
  const { rows, columns } = defaultSheetLimits;
  return [
    "I answer questions over this chat's CSV, JSON and XLSX files with DuckDB; each file is a table named after it (`sales.csv` → `sales`).",
    '- `@data tables` lists the tables and their columns.',
    '- `@data SELECT region, sum(amount) FROM sales GROUP BY 1` (or a ```sql block) runs one read-only query: SELECT, WITH … SELECT, DESCRIBE or SHOW. No key needed.',
    '- `@data which region sold most in March?` writes the SQL for you when you have an AI key.',
    `Results show the first 50 rows; a series (dates or categories with numbers) also gets a chart. Queries stop after ${seconds(queryTimeoutMs)}, a whole answer after ${seconds(jobDeadlineMs)}; spreadsheets load up to ${rows.toLocaleString('en-US')} rows and ${columns.toLocaleString('en-US')} columns.`,
  ].join('\n');
}

/** The message without the @data mention; a fenced sql block wins over the rest. */
export function dataRequest(content: string, username = 'data'): { kind: 'help' } | { kind: 'tables' } | { kind: 'sql'; sql: string } | { kind: 'question'; text: string } {
  const fenced = /```(?:sql)?\s*\n?([\s\S]*?)```/i.exec(content);
  if (fenced?.[1] !== undefined && fenced[1].trim() !== '') return { kind: 'sql', sql: fenced[1].trim() };
  const text = requestText(content, username);
  if (text === '' || /^(help|\?)$/i.test(text)) return { kind: 'help' };
  if (/^(tables|schema)$/i.test(text)) return { kind: 'tables' };
  if (looksLikeSql(text)) return { kind: 'sql', sql: text.replace(/;\s*$/, '') };
  return { kind: 'question', text };
}

function failureText(failure: QueryFailure): string {
  if (failure.kind === 'refused') return `I can't run that: ${failure.message}`;
  if (failure.kind === 'timeout') return failure.message;
  return `The query failed: ${failure.message}`;
}

/** What the model sees of a result: columns and the first 20 rows. */
function resultForModel(result: QueryResult): string {
  const rows = result.rows.slice(0, 20).map((row) => JSON.stringify(row));
  return [`columns: ${result.columns.map((column) => `${column.name} ${column.type}`).join(', ')}`, `rows (${result.rowCount}${result.rowCountCapped ? '+' : ''} in all, first ${rows.length}):`, ...rows].join('\n');
}

async function schemaWithSamples(database: OpenedData, timeoutMs: number): Promise<string> {
  const parts: string[] = [];
  for (const table of database.tables) {
    const sample = await database.query(`SELECT * FROM "${table.name}" LIMIT 3`, { timeoutMs });
    const rows = sample.ok ? sample.rows.map((row) => JSON.stringify(row)).join('\n') : '';
    parts.push(`table ${table.name} (${table.rowCount} rows, from ${table.file}): ${table.columns.map((column) => `${column.name} ${column.type}`).join(', ')}\nsample rows:\n${rows}`);
  }
  return parts.join('\n\n');
}

/** Why a job ended without its answer, worded for the chat. */
function outcomeText(outcome: Exclude<DataJobOutcome<unknown>, { kind: 'done' } | { kind: 'failed' }>, jobs: DataJobs): string {
  if (outcome.kind === 'busy') {
    const load = `${outcome.running} running, ${outcome.waiting} waiting`;
    if (outcome.scope === 'user') return `@data is busy with your earlier questions (${load}); ask again once they are answered.`;
    if (outcome.scope === 'chat') return `@data is busy in this chat (${load}); ask again once those are answered.`;
    return `@data is busy on this server (${load}); try again in a minute.`;
  }
  if (outcome.kind === 'deadline') {
    const waited = outcome.waitedMs >= 100 ? `, ${seconds(outcome.waitedMs)} of it waiting for a free slot` : '';
    return `@data stopped this job after ${seconds(jobs.limits.deadlineMs)} (its time limit${waited}); try filtering or aggregating first, or ask again when @data is less busy.`;
  }
  if (outcome.end.kind === 'memory') return `@data's worker ran out of memory (${jobs.resources.memoryMb} MB) and this job was stopped; the server is fine. Try filtering or aggregating first, or smaller files.`;
  if (outcome.end.kind === 'crashed') return `@data's worker stopped unexpectedly (${outcome.end.detail}) and this job was ended; the server is fine. Try again.`;
  return '@data stopped this job.';
}

/**
 * A reply that a job's work writes through until the job is over: after that (the deadline, a
 * dead process) whatever the abandoned work still sends is dropped, and the stream it left open is
 * the one the job's end is written to.
 */
function jobReply(reply: InProcessReply): { reply: InProcessReply; close(): InProcessReplyStream | undefined } {
  let open = true;
  let stream: InProcessReplyStream | undefined;
  const over = () => Promise.reject(new Error('the @data job is over'));
  return {
    reply: {
      send: (content) => (open ? reply.send(content) : over()),
      status: (text) => {
        if (open) reply.status(text);
      },
      stream() {
        const inner = reply.stream();
        stream = inner;
        return {
          id: inner.id,
          write: (text) => {
            if (open) inner.write(text);
          },
          end: () => {
            if (!open) return over();
            stream = undefined;
            return inner.end();
          },
        };
      },
    },
    close() {
      open = false;
      return stream;
    },
  };
}

/**
 * The @data handler: `tables`, `help`, SQL run as given, and questions in words
 * turned into SQL by the model when a key can pay. Each question that reads files is one job of
 * `jobs`: its own process holding a locked in-memory DuckDB, within the job limits.
 */
export function createDataHandler(options: DataAgentOptions): HostedAgentHandler {
  const timeoutMs = options.timeoutMs ?? defaultQueryTimeoutMs;
  const maxRetries = options.maxRetries ?? 2;

  const runAndAnswer = async (database: OpenedData, sql: string, reply: InProcessReply) => {
    reply.status('is running SQL…');
    const result = await database.query(sql, { timeoutMs });
    if (!result.ok) {
      await reply.send(failureText(result));
      return;
    }
    await reply.send(`${sqlBlock(sql)}\n\n${markdownTable(result)}`);
    const chart = chartFor(result);
    if (chart !== undefined) await reply.send(JSON.stringify(chart));
  };

  const answerInWords = async (database: OpenedData, mention: Mention, question: string, ai: AiGateway, reply: InProcessReply) => {
    if (database.tables.length === 0) {
      await reply.send(tablesText(database.tables, database.skipped));
      return;
    }
    let last: { sql: string; result: QueryResult } | undefined;
    let failures = 0;
    const runSql: AiTool = {
      name: 'run_sql',
      description: "Runs one read-only DuckDB query (SELECT, WITH … SELECT, DESCRIBE or SHOW) over the chat's tables and answers its columns and first rows, or the error.",
      parameters: { type: 'object', properties: { sql: { type: 'string', description: 'One DuckDB SELECT statement.' } }, required: ['sql'], additionalProperties: false },
      run: async (args) => {
        const sql = typeof args['sql'] === 'string' ? args['sql'].trim().replace(/;\s*$/, '') : '';
        if (failures > maxRetries) return 'Too many failed queries; answer with what you know and say the query failed.';
        reply.status('is running SQL…');
        const result = await database.query(sql, { timeoutMs });
        if (!result.ok) {
          failures += 1;
          return `Error: ${result.message}${failures > maxRetries ? ' (no retries left)' : ' Fix the SQL and call run_sql again.'}`;
        }
        last = { sql, result };
        return resultForModel(result);
      },
    };
    const system = [
      "You are @data, answering questions about a chat's data files with DuckDB SQL.",
      'Call run_sql with one read-only DuckDB SELECT over these tables (quote identifiers with double quotes when needed), then answer in one or two short sentences from its result.',
      'Never invent numbers; if the data cannot answer, say so.',
      // The reply appends the SQL and its table, and a chart follows a series: a table from the model would be a second copy.
      'Your SQL and its result as a table (and a chart, for a series) are shown under your answer: do not repeat the rows or write a table.',
      '',
      await schemaWithSamples(database, timeoutMs),
    ].join('\n');
    let stream: ReturnType<InProcessReply['stream']> | undefined;
    try {
      const answer = await ai.complete({
        invokerId: mention.author_id,
        system,
        messages: [{ role: 'user', content: question }],
        tools: [runSql],
        maxToolRounds: maxRetries + 2,
        onText: (delta) => {
          stream ??= reply.stream();
          stream.write(delta);
        },
        onToolStatus: (text) => reply.status(text),
      });
      const details = last === undefined ? '' : `\n\n${sqlBlock(last.sql)}\n\n${markdownTable(last.result)}`;
      if (stream !== undefined) {
        stream.write(details);
        await stream.end();
      } else {
        await reply.send(`${answer.text.trim() || (last === undefined ? 'I could not find an answer.' : 'Here is what the query found:')}${details}`);
      }
      const chart = last === undefined ? undefined : chartFor(last.result);
      if (chart !== undefined) await reply.send(JSON.stringify(chart));
    } catch (error) {
      const text = error instanceof AiError ? error.message : 'I could not reach the AI provider; try again, or send SQL.';
      await finishReply(reply, stream, text, { cutOff: true });
    }
  };

  return async (mention, reply) => {
    const request = dataRequest(mention.content);
    if (request.kind === 'help') {
      await reply.send(dataHelp(timeoutMs, options.jobs.limits.deadlineMs));
      return;
    }
    if (request.kind === 'question') {
      const ai = options.ai;
      if (ai === undefined || !(await ai.available(mention.author_id))) {
        await reply.send(`I answer questions in words with an AI key; without one, send SQL (\`@data SELECT * FROM sales LIMIT 10\`) or ask \`@data tables\`. ${addKeyHint}`);
        return;
      }
    }
    const files = await options.files(mention.chat_id);
    const guarded = jobReply(reply);
    const outcome = await options.jobs.run(
      { chatId: mention.chat_id, userId: mention.author_id },
      async (job) => {
        const database = await job.open(files);
        if (request.kind === 'tables') await guarded.reply.send(tablesText(database.tables, database.skipped));
        else if (request.kind === 'sql') await runAndAnswer(database, request.sql, guarded.reply);
        else await answerInWords(database, mention, request.text, options.ai!, guarded.reply);
      },
      () => reply.status('is waiting for a free slot…'),
    );
    if (outcome.kind === 'done') return;
    const leftOpen = guarded.close();
    if (outcome.kind === 'failed') {
      // Not the person's doing: a short reply, and the error for the server's log.
      await finishReply(reply, leftOpen, '@data could not finish this job; try again.').catch(() => undefined);
      throw outcome.error;
    }
    await finishReply(reply, leftOpen, outcomeText(outcome, options.jobs));
  };
}

/**
 * The chat's files from the store: paths on this server's disk, or keys in the bucket that the
 * job fetches local copies of.
 */
export function chatDataFiles(services: Services): (chatId: string) => Promise<ChatDataFile[]> {
  const { store, files } = services.context;
  return async (chatId) =>
    (await store.files.listByChat(chatId)).map((row) => {
      const key = fileKey(row.chat, row.id, row.file);
      const path = files.localPath(key);
      return path === undefined ? { originalName: row.original_name, path: key, size: row.size, key } : { originalName: row.original_name, path, size: row.size };
    });
}

/** The built-in @data agent of a server, over its job queue. */
export function createDataAgent(services: Services, jobs: DataJobs, ai?: AiGateway): HostedAgentHandler {
  return createDataHandler({ files: chatDataFiles(services), jobs, ai });
}
