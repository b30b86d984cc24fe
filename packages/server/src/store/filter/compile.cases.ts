/**
 * The compile suite, run against every database (SQLite always, PostgreSQL when reachable):
 * each case is a filter, the collection it runs on and the ids it must return.
 */
import { sql, type Kysely, type SqlBool } from 'kysely';
import { describe, expect, it } from 'vitest';
import { compileFilter } from './compile';
import { FilterError } from './errors';
import { registry, type FixtureDatabase } from './fixture';

type Collection = 'users' | 'chats' | 'messages';

/** A fixed clock: 2026-01-12 12:00 UTC, between the fixture's message dates. */
export const fixedNow = new Date(Date.UTC(2026, 0, 12, 12, 0, 0));

export const matchCases: Array<[collection: Collection, filter: string, ids: string[]]> = [
  // equality, null tolerance
  ['messages', 'id = "m_1"', ['m_1']],
  ['messages', "id = 'm_1'", ['m_1']],
  ['messages', 'id != "m_1"', ['m_2', 'm_3', 'm_4', 'm_5', 'm_6']],
  ['messages', 'content = ""', ['m_4', 'm_5']],
  ['messages', 'content = null', ['m_4', 'm_5']],
  ['messages', 'content != ""', ['m_1', 'm_2', 'm_3', 'm_6']],
  ['messages', 'content != null', ['m_1', 'm_2', 'm_3', 'm_6']],
  ['messages', 'content != "Hello world"', ['m_2', 'm_3', 'm_4', 'm_5', 'm_6']],
  ['messages', 'id ?= "m_1"', ['m_1']],
  // numbers
  ['messages', 'views > 2', ['m_1', 'm_3', 'm_5']],
  ['messages', 'views >= 2', ['m_1', 'm_3', 'm_5', 'm_6']],
  ['messages', 'views < 3', ['m_2', 'm_6']],
  ['messages', 'views <= 0', ['m_2']],
  ['messages', 'views = null', ['m_4']],
  ['messages', 'views != null', ['m_1', 'm_2', 'm_3', 'm_5', 'm_6']],
  ['messages', 'views = 10.0', ['m_1']],
  ['messages', 'views > -1', ['m_1', 'm_2', 'm_3', 'm_5', 'm_6']],
  ['messages', 'views > 2.5', ['m_1', 'm_3', 'm_5']],
  ['messages', 'views = "10"', ['m_1']],
  ['messages', 'views < 99999999999999999999999', ['m_1', 'm_2', 'm_3', 'm_5', 'm_6']],
  ['messages', 'views ?> 5', ['m_1', 'm_5']],
  ['messages', 'views > null', []],
  // LIKE
  ['messages', 'content ~ "hello"', ['m_1']],
  ['messages', 'content ~ "HELLO WORLD"', ['m_1']],
  ['messages', 'content ~ "50%"', ['m_2']],
  ['messages', 'content ~ "o_w"', []],
  ['messages', 'content ~ "off_s"', ['m_2']],
  ['messages', 'content ~ "0\\%"', ['m_2']],
  ['messages', 'content !~ "hello"', ['m_2', 'm_3', 'm_4', 'm_5', 'm_6']],
  ['messages', 'content ~ "\\\\"', ['m_3']],
  ['messages', 'content ~ "\\"q\\""', ['m_3']],
  ['messages', 'content ~ "line1\\nline2"', ['m_3']],
  ['messages', 'content ~ "\\u00dcn"', ['m_6']],
  ['messages', 'content ~ "\\ud83d\\ude00 日本"', ['m_6']],
  ['messages', 'meta ~ "pinned"', ['m_1']],
  ['messages', 'views ~ "10"', ['m_1']],
  ['users', 'name ~ "%\\_100\\%"', ['u_bob']],
  ['users', 'name ~ "_100%"', []],
  // single relations
  ['messages', 'author = "u_bob"', ['m_2', 'm_3']],
  ['messages', 'author = ""', ['m_5']],
  ['messages', 'author.username = "bob"', ['m_2', 'm_3']],
  ['messages', 'author.username != "bob"', ['m_1', 'm_4', 'm_5', 'm_6']],
  ['messages', 'author.username = ""', ['m_5']],
  ['messages', 'author.team.name = "Red"', ['m_1', 'm_4']],
  ['messages', 'author.verified = true', ['m_1', 'm_6']],
  ['messages', 'author.verified = false', ['m_2', 'm_3', 'm_4']],
  ['messages', 'author.age > 30', ['m_1', 'm_4']],
  ['messages', 'reply_to.author.username = "ann"', ['m_2']],
  ['messages', 'reply_to.reply_to.id = "m_1"', ['m_4']],
  ['messages', 'chat.participants.username ?= "cyd"', ['m_1', 'm_2', 'm_6']],
  ['messages', 'chat.participants:length = 2', ['m_4', 'm_5']],
  ['messages', 'chat.participants.username = "bob"', ['m_3']],
  ['messages', 'chat.participants.username != "bob"', ['m_4', 'm_5']],
  // field against field
  ['messages', 'author = chat.owner', ['m_1', 'm_3', 'm_4']],
  ['messages', 'author.age > views', ['m_1', 'm_2', 'm_3']],
  ['messages', 'author.username ~ chat.title', []],
  ['chats', 'title ~ owner.username', []],
  // dates and macros (now = 2026-01-12 12:00 UTC)
  ['messages', 'created >= "2026-01-12 00:00:00.000Z"', ['m_3', 'm_4', 'm_5', 'm_6']],
  ['messages', 'created > @now', ['m_4', 'm_5', 'm_6']],
  ['messages', 'created < @todayStart', ['m_1', 'm_2']],
  ['messages', 'created <= @todayEnd', ['m_1', 'm_2', 'm_3']],
  ['messages', 'created >= @yesterday', ['m_3', 'm_4', 'm_5', 'm_6']],
  ['messages', 'created < @tomorrow', ['m_1', 'm_2', 'm_3', 'm_4']],
  ['messages', 'created >= @monthStart && created <= @monthEnd', ['m_1', 'm_2', 'm_3', 'm_4', 'm_5', 'm_6']],
  ['messages', 'created < @yearStart || created > @yearEnd', []],
  // precedence, grouping, comments
  ['messages', 'id = "m_1" || id = "m_2" && views > 5', ['m_1']],
  ['messages', '(id = "m_1" || id = "m_2") && views >= 0', ['m_1', 'm_2']],
  ['messages', 'id = "m_1" // first\n|| id = "m_3" // third', ['m_1', 'm_3']],
  ['messages', '((((id = "m_6"))))', ['m_6']],
  // literal against literal
  ['messages', '1 = 1', ['m_1', 'm_2', 'm_3', 'm_4', 'm_5', 'm_6']],
  ['messages', '"a" = "b"', []],
  ['messages', 'null = null', ['m_1', 'm_2', 'm_3', 'm_4', 'm_5', 'm_6']],
  ['messages', 'null = ""', ['m_1', 'm_2', 'm_3', 'm_4', 'm_5', 'm_6']],
  ['messages', '2 > 10', []],
  ['messages', '"2" > "10"', ['m_1', 'm_2', 'm_3', 'm_4', 'm_5', 'm_6']],
  ['messages', '"abc" ~ "B"', ['m_1', 'm_2', 'm_3', 'm_4', 'm_5', 'm_6']],
  // multi relations: plain = every value, ? = at least one
  ['chats', 'participants.username = "bob"', ['c_random']],
  ['chats', 'participants.username ?= "bob"', ['c_general', 'c_random']],
  ['chats', 'participants.username ?!= "bob"', ['c_general', 'c_red']],
  ['chats', 'participants.username != "bob"', ['c_empty', 'c_red']],
  ['chats', 'participants.username = ""', ['c_empty']],
  ['chats', 'participants.username ?~ "d"', ['c_general', 'c_red']],
  ['chats', 'participants.team.name ?= "Blue"', ['c_general', 'c_random']],
  ['chats', 'participants.team.name = "Red"', ['c_red']],
  ['chats', 'participants.age > 20', ['c_random', 'c_red']],
  ['chats', 'participants ?= "u_ann"', ['c_general', 'c_red']],
  ['chats', 'participants = "u_bob"', ['c_random']],
  ['chats', 'participants:length = 0', ['c_empty']],
  ['chats', 'participants:length > 1', ['c_general', 'c_red']],
  ['chats', 'participants:length = 2', ['c_red']],
  ['chats', 'participants.username ?= owner.username', ['c_general', 'c_random', 'c_red']],
  ['chats', 'participants.username = owner.username', ['c_empty', 'c_random']],
  // other field kinds
  ['chats', 'owner.username ~ "an"', ['c_general']],
  ['chats', 'archived = true', ['c_random']],
  ['chats', 'archived = 1', ['c_random']],
  ['chats', 'archived != true', ['c_empty', 'c_general', 'c_red']],
  ['chats', 'title ~ "\\"quotes\\""', ['c_random']],
  ['chats', 'title ~ "\\\\ back"', ['c_random']],
  ['chats', 'title = null', ['c_empty']],
  ['chats', 'title != null', ['c_general', 'c_random', 'c_red']],
  ['chats', 'owner = ""', ['c_empty']],
  ['users', 'name = ""', ['u_cyd', 'u_dee']],
  ['users', 'verified = true && age > 30', ['u_ann']],
  ['users', 'age = ""', ['u_cyd']],
  ['users', 'age != ""', ['u_ann', 'u_bob', 'u_dee']],
  ['users', 'team.name = "Red"', ['u_ann', 'u_dee']],
  ['users', 'team.name != "Red"', ['u_bob', 'u_cyd']],
  ['users', 'username:lower = "ann"', ['u_ann']],
  ['users', '', ['u_ann', 'u_bob', 'u_cyd', 'u_dee']],
  ['users', '  // only a comment', ['u_ann', 'u_bob', 'u_cyd', 'u_dee']],
];

export const errorCases: Array<[collection: Collection, filter: string, status: 400 | 403, message: string]> = [
  ['users', 'email = "ann@example.com"', 400, 'Invalid filter: unknown field "email".'],
  ['messages', 'author.email ~ "@"', 400, 'Invalid filter: unknown field "author.email".'],
  ['messages', 'content.length = 1', 400, 'Invalid filter: unknown field "content.length".'],
  ['messages', '__proto__ = 1', 400, 'unknown field "__proto__"'],
  ['messages', 'constructor = 1', 400, 'unknown field "constructor"'],
  ['messages', 'author.toString = 1', 400, 'unknown field "author.toString"'],
  ['messages', '@request.auth.id = "u_ann"', 403, '"@request.auth.id" may only be used in API rules'],
  ['messages', 'author = @request.auth.id', 403, 'may only be used in API rules'],
  ['messages', '@collection.users.id ?= author', 403, 'may only be used in API rules'],
  ['messages', '@foo = 1', 400, 'unknown field "@foo"'],
  ['messages', '#id = 1', 400, 'unknown field "#id"'],
  ['messages', 'views = "abc"', 400, '"abc" is not a number'],
  ['messages', 'views = content', 400, 'cannot compare a number value with a text value'],
  ['messages', 'views > @now', 400, 'is not a number'],
  ['chats', 'participants:count = 1', 400, 'unknown modifier ":count"'],
  ['chats', 'title:length = 1', 400, '":length" needs a multi relation'],
  ['chats', 'archived:lower = 1', 400, '":lower" needs a text field'],
  ['messages', 'id = "\\u0000"', 400, 'NUL'],
];

function sorted(ids: string[]): string[] {
  return [...ids].sort();
}

export function runCompileSuite(label: string, getDb: () => Kysely<FixtureDatabase>): void {
  describe(`compileFilter on ${label}`, () => {
    const select = async (collection: Collection, filter: string): Promise<string[]> => {
      const condition = compileFilter(filter, { registry, collection, now: fixedNow });
      const rows = await getDb().selectFrom(collection).select('id').where(condition).execute();
      return sorted(rows.map((row) => row.id));
    };

    it.each(matchCases)('%s: %s', async (collection, filter, ids) => {
      expect(await select(collection, filter)).toEqual(sorted(ids));
    });

    it.each(errorCases)('%s: %s → %d', (collection, filter, status, message) => {
      const run = (): unknown => compileFilter(filter, { registry, collection, now: fixedNow });
      expect(run).toThrow(FilterError);
      try {
        run();
      } catch (error) {
        expect((error as FilterError).status).toBe(status);
        expect((error as FilterError).message).toContain(message);
      }
    });

    it('works on an aliased table', async () => {
      const condition = compileFilter('author.username = "bob"', { registry, collection: 'messages', tableAlias: 'm' });
      const rows = await getDb().selectFrom('messages as m').select('m.id').where(condition).orderBy('m.id').execute();
      expect(rows.map((row) => row.id)).toEqual(['m_2', 'm_3']);
    });

    it('cannot escape a list rule it is ANDed with', async () => {
      const rule = sql<SqlBool>`"messages"."id" IN ('m_1', 'm_2')`;
      const filter = compileFilter('id = "m_3" || 1 = 1 || author.username ?= "dee"', { registry, collection: 'messages' });
      const rows = await getDb().selectFrom('messages').select('id').where(rule).where(filter).execute();
      expect(sorted(rows.map((row) => row.id))).toEqual(['m_1', 'm_2']);
    });
  });
}
