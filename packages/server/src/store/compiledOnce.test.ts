import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { compiledOnce } from './compiledOnce';
import { withStatementCache } from './statementCache';

interface Tables {
  notes: { id: string; owner: string; body: string; stars: number };
}

function notesDatabase() {
  const connection = new BetterSqlite3(':memory:');
  connection.exec('create table notes (id text primary key, owner text not null, body text not null, stars integer not null)');
  const insert = connection.prepare('insert into notes values (?, ?, ?, ?)');
  insert.run('a', 'ann', 'first', 1);
  insert.run('b', 'ann', 'second', 5);
  insert.run('c', 'bob', 'third', 2);
  return { connection, db: new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(connection, 2) }) }) };
}

describe('compiledOnce', () => {
  it('answers what the builder answers, for every set of values, constants kept', async () => {
    const { db } = notesDatabase();
    const starred = compiledOnce((owner: string, least: number) =>
      db.selectFrom('notes').select(['id', 'body']).where('owner', '=', owner).where('stars', '>=', least).where('body', '!=', 'never').orderBy('id'),
    );
    for (const [owner, least] of [['ann', 0], ['ann', 3], ['bob', 0], ['nobody', 0]] as const) {
      const built = await db.selectFrom('notes').select(['id', 'body']).where('owner', '=', owner).where('stars', '>=', least).where('body', '!=', 'never').orderBy('id').execute();
      expect((await starred.execute(db, owner, least)).rows).toEqual(built);
    }
  });

  it('puts an argument used twice in both places', async () => {
    const { db } = notesDatabase();
    const either = compiledOnce((text: string) => db.selectFrom('notes').select('id').where((eb) => eb.or([eb('id', '=', text), eb('body', '=', text)])).orderBy('id'));
    expect((await either.execute(db, 'third')).rows).toEqual([{ id: 'c' }]);
    expect((await either.execute(db, 'a')).rows).toEqual([{ id: 'a' }]);
  });

  it('refuses a query whose shape depends on an argument instead of taking it as a value', async () => {
    const { db } = notesDatabase();
    const unused = compiledOnce((owner: string) => db.selectFrom('notes').select('id').where('owner', '=', owner === 'ann' ? 'ann' : 'bob'));
    await expect(unused.execute(db, 'ann')).rejects.toThrow(/argument 0 is not a parameter/);
  });
});

describe('withStatementCache', () => {
  it('prepares a statement once per SQL text and drops the least recently used past its size', () => {
    const { connection } = notesDatabase();
    const cached = withStatementCache(connection, 2);
    const first = cached.prepare('select 1');
    expect(cached.prepare('select 1')).toBe(first);
    const second = cached.prepare('select 2');
    cached.prepare('select 1');
    cached.prepare('select 3');
    expect(cached.prepare('select 1')).toBe(first);
    expect(cached.prepare('select 2')).not.toBe(second);
  });
});
