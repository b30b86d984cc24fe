/**
 * @data's query time limit, apart from duckdb.ts so the server can name it without loading DuckDB:
 * only a job's own process (dataWorker.ts) loads the database engine.
 */
export const defaultQueryTimeoutMs = 10_000;
