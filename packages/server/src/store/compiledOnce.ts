import { createQueryId, type Compilable, type CompiledQuery, type Kysely, type QueryResult, type RawBuilder } from 'kysely';
/** A Kysely instance or a transaction of it: what a compiled query runs on. */
export type Executor = Pick<Kysely<unknown>, 'executeQuery' | 'getExecutor'>;

/**
 * A query that Kysely builds and compiles once, then runs with new values: on the send path,
 * building and compiling cost more than the database's own work. `build` receives stand-ins for
 * its arguments and must put each one where a value goes (a parameter of the compiled SQL), so
 * the shape of the query must not depend on them: no `in (…)` lists, no branching on a value.
 * Compiled on first use for the executor's dialect (one per database, so once per process).
 *
 * @example
 * const byId = compiledOnce((id: string) => db.selectFrom('users').selectAll().where('id', '=', id));
 * const [user] = (await byId.execute(db, 'abc')).rows;
 */
export function compiledOnce<Args extends unknown[], Row>(build: (...args: Args) => Compilable<Row> | RawBuilder<Row>) {
  let compiled: { query: CompiledQuery<Row>; slots: Array<{ argument: number } | { value: unknown }> } | undefined;
  const compile = (executor: Executor) => {
    const markers = Array.from({ length: build.length }, (_, index) => `\u0000compiledOnce argument ${index}\u0000`);
    const built = build(...(markers as Args));
    const query = 'isRawBuilder' in built ? built.compile(executor) : built.compile();
    const slots = query.parameters.map((value) => {
      const argument = markers.indexOf(value as string);
      return argument === -1 ? { value } : { argument };
    });
    const missing = markers.filter((_, index) => !slots.some((slot) => 'argument' in slot && slot.argument === index));
    if (missing.length > 0) throw new Error(`compiledOnce: argument ${markers.indexOf(missing[0]!)} is not a parameter of ${query.sql}`);
    return { query, slots };
  };
  return {
    async execute(executor: Executor, ...args: Args): Promise<QueryResult<Row>> {
      compiled ??= compile(executor);
      const parameters = compiled.slots.map((slot) => ('argument' in slot ? args[slot.argument] : slot.value));
      return executor.executeQuery<Row>({ ...compiled.query, parameters, queryId: createQueryId() });
    },
  };
}
