import { sql, type Insertable, type Kysely } from 'kysely';
import type { ConfabDatabase, DialectName } from '../database';
import type { Database, DropsTable, FilesTable } from '../schema';

/** One searchable row of a chat (migration 009): a drop, or an uploaded file with its text. */
export interface WorkspaceSearchTable {
  id: string;
  chat: string;
  drop_id: string | null;
  file_id: string | null;
  kind: 'drop' | 'file';
  title: string;
  body: string;
  /** Path under the server's public URL, e.g. `/drops/{slug}`. */
  link: string;
  created: string;
}

export interface WorkspaceMatch {
  kind: 'drop' | 'file';
  title: string;
  link: string;
  /** A stretch of the body around the match (may be empty for a title-only match). */
  snippet: string;
  /** Higher is better: ts_rank on PostgreSQL, minus bm25 on SQLite (not comparable across them). */
  score: number;
}

type SearchDatabase = Database & { workspace_search: WorkspaceSearchTable };

/** The words of a query, as the full-text engines match them: letters and digits only. */
export function searchTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((word) => word.length > 1 || /\p{N}/u.test(word)))].slice(0, 16);
}

/**
 * The workspace full-text index on both dialects: SQLite FTS5 (bm25) and PostgreSQL
 * tsvector with a GIN index (ts_rank). A query matches any of its words, best matches first.
 */
export class WorkspaceSearchRepository {
  private readonly db: Kysely<SearchDatabase>;
  private readonly dialect: DialectName;

  constructor(database: ConfabDatabase) {
    this.db = database.db.withTables<{ workspace_search: WorkspaceSearchTable }>();
    this.dialect = database.dialect;
  }

  /** The chat's drops with no row yet. */
  async unindexedDrops(chatId: string): Promise<Pick<DropsTable, 'id' | 'slug' | 'title' | 'content' | 'published_at'>[]> {
    return this.db
      .selectFrom('drops')
      .leftJoin('workspace_search', 'workspace_search.drop_id', 'drops.id')
      .select(['drops.id', 'drops.slug', 'drops.title', 'drops.content', 'drops.published_at'])
      .where('drops.chat', '=', chatId)
      .where('workspace_search.id', 'is', null)
      .execute();
  }

  /** The chat's files with no row yet. */
  async unindexedFiles(chatId: string): Promise<Pick<FilesTable, 'id' | 'chat' | 'file' | 'original_name' | 'description' | 'created'>[]> {
    return this.db
      .selectFrom('files')
      .leftJoin('workspace_search', 'workspace_search.file_id', 'files.id')
      .select(['files.id', 'files.chat', 'files.file', 'files.original_name', 'files.description', 'files.created'])
      .where('files.chat', '=', chatId)
      .where('workspace_search.id', 'is', null)
      .execute();
  }

  /** Adds a row; a row for the same drop or file (a concurrent search indexed it) is kept. */
  async insert(row: Insertable<WorkspaceSearchTable>): Promise<void> {
    await this.db.insertInto('workspace_search').values(row).onConflict((conflict) => conflict.doNothing()).execute();
  }

  /** The chat's rows matching any word of `query`, best first; none for a query without words. */
  async searchWorkspace(chatId: string, query: string, limit: number): Promise<WorkspaceMatch[]> {
    const terms = searchTerms(query);
    if (terms.length === 0 || limit <= 0) return [];
    type Row = { kind: 'drop' | 'file'; title: string; link: string; snippet: string | null; score: number | string };
    let rows: Row[];
    if (this.dialect === 'postgres') {
      const tsQuery = terms.join(' | ');
      const result = await sql<Row>`
        select kind, title, link,
          ts_headline('english', body, query, 'MaxWords=35, MinWords=15, StartSel=«, StopSel=», MaxFragments=2, FragmentDelimiter=" … "') as snippet,
          ts_rank(search_vector, query) as score
        from workspace_search, to_tsquery('english', ${tsQuery}) as query
        where chat = ${chatId} and search_vector @@ query
        order by score desc, created desc
        limit ${limit}`.execute(this.db);
      rows = result.rows;
    } else {
      const match = terms.map((term) => `"${term}"`).join(' OR ');
      const result = await sql<Row>`
        select w.kind, w.title, w.link,
          snippet(workspace_search_fts, 1, '«', '»', '…', 24) as snippet,
          -bm25(workspace_search_fts, 5.0, 1.0) as score
        from workspace_search_fts join workspace_search as w on w.rowid = workspace_search_fts.rowid
        where workspace_search_fts match ${match} and w.chat = ${chatId}
        order by score desc, w.created desc
        limit ${limit}`.execute(this.db);
      rows = result.rows;
    }
    return rows.map((row) => ({
      kind: row.kind,
      title: row.title,
      link: row.link,
      // Both engines mark the matched words with « »; the card shows plain text.
      snippet: (row.snippet ?? '').replace(/[«»]/g, '').replace(/\s+/g, ' ').trim(),
      score: Math.round(Number(row.score) * 1000) / 1000,
    }));
  }
}
