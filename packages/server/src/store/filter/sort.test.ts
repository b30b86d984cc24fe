import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { FilterError } from './errors';
import { openPostgres, openSqlite, registry, type FixtureDatabase } from './fixture';
import { compileSort, sortClause } from './sort';

type Collection = 'users' | 'chats' | 'messages';

const sqlite = await openSqlite();
const postgres = await openPostgres();
afterAll(async () => {
  await sqlite.destroy();
  await postgres?.close();
});

const databases: Array<[string, Kysely<FixtureDatabase> | null]> = [
  ['SQLite', sqlite],
  ['PostgreSQL', postgres?.db ?? null],
];

async function sortedIds(db: Kysely<FixtureDatabase>, collection: Collection, sort: string): Promise<string[]> {
  let query = db.selectFrom(collection).select('id');
  for (const entry of compileSort(sort, { registry, collection })) query = query.orderBy(sortClause(entry));
  // The id breaks ties, so equal keys do not make the expectation depend on the database.
  const rows = await query.orderBy('id').execute();
  return rows.map((row) => row.id);
}

for (const [label, db] of databases) describe.skipIf(db === null)(`compileSort on ${label}`, () => {

  it.each<[Collection, string, string[]]>([
    ['messages', 'views', ['m_4', 'm_2', 'm_6', 'm_3', 'm_5', 'm_1']],
    ['messages', '+views', ['m_4', 'm_2', 'm_6', 'm_3', 'm_5', 'm_1']],
    ['messages', '-views', ['m_1', 'm_5', 'm_3', 'm_6', 'm_2', 'm_4']],
    ['messages', '-created', ['m_6', 'm_5', 'm_4', 'm_3', 'm_2', 'm_1']],
    ['messages', 'author.username,-created', ['m_5', 'm_1', 'm_3', 'm_2', 'm_6', 'm_4']],
    ['messages', '-author.username, created', ['m_4', 'm_6', 'm_2', 'm_3', 'm_1', 'm_5']],
    ['messages', 'author.team.name,id', ['m_5', 'm_6', 'm_2', 'm_3', 'm_1', 'm_4']],
    ['chats', '-participants:length,title', ['c_general', 'c_red', 'c_random', 'c_empty']],
    ['users', 'name', ['u_cyd', 'u_dee', 'u_ann', 'u_bob']],
    ['users', 'verified,-age', ['u_dee', 'u_bob', 'u_ann', 'u_cyd']],
    ['users', ' , username ,', ['u_ann', 'u_bob', 'u_cyd', 'u_dee']],
    ['users', '', ['u_ann', 'u_bob', 'u_cyd', 'u_dee']],
  ])('%s: %j', async (collection, sort, ids) => {
    expect(await sortedIds(db as Kysely<FixtureDatabase>, collection, sort)).toEqual(ids);
  });

  it('@random returns every row', async () => {
    const ids = await sortedIds(db as Kysely<FixtureDatabase>, 'users', '@random,-@random');
    expect([...ids].sort()).toEqual(['u_ann', 'u_bob', 'u_cyd', 'u_dee']);
  });
});

describe('compileSort errors', () => {
  it.each<[Collection, string, string]>([
    ['users', 'email', 'Invalid sort: unknown field "email".'],
    ['users', '-email', 'Invalid sort: unknown field "email".'],
    ['messages', 'author.email', 'Invalid sort: unknown field "author.email".'],
    ['messages', 'views desc', 'Invalid sort: unknown field "views desc".'],
    ['messages', 'views;DROP TABLE users', 'Invalid sort: unknown field "views;DROP TABLE users".'],
    ['messages', '--views', 'Invalid sort: unknown field "-views".'],
    ['messages', '@request.auth.id', 'Invalid sort: unknown field "@request.auth.id".'],
    ['messages', '__proto__', 'Invalid sort: unknown field "__proto__".'],
    ['chats', 'participants.username', 'Invalid sort: cannot sort by the multi-valued field "participants.username".'],
    ['chats', 'participants', 'Invalid sort: cannot sort by the multi-valued field "participants".'],
    ['messages', 'a.b.c.d.e.f.g.h', 'Invalid sort: path "a.b.c.d.e.f.g.h" has more than 6 relation hops.'],
    ['messages', 'a..b', 'Invalid sort: malformed identifier "a..b".'],
    ['messages', 'id,id,id,id,id,id,id,id,id', 'Invalid sort: more than 8 fields.'],
  ])('%s: %j', (collection, sort, message) => {
    const run = (): unknown => compileSort(sort, { registry, collection });
    expect(run).toThrow(FilterError);
    expect(run).toThrow(message);
  });

  it('accepts exactly 8 fields', () => {
    expect(compileSort('id,id,id,id,id,id,id,id', { registry, collection: 'users' })).toHaveLength(8);
  });
});
