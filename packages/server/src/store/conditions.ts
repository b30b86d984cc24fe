import { sql, type Expression, type SqlBool } from 'kysely';

/**
 * SQL building blocks for access rules. Services decide who may see what; these fragments are
 * how such decisions are said in SQL (parameterised, qualified by table name).
 */

export const never: Expression<SqlBool> = sql<SqlBool>`1 = 0`;
export const always: Expression<SqlBool> = sql<SqlBool>`1 = 1`;

/** The chat whose id is in `chatColumn` (e.g. "messages.chat") has `userId` as a participant. */
export function chatHasParticipant(chatColumn: string, userId: string): Expression<SqlBool> {
  return sql<SqlBool>`exists (select 1 from chat_participants as rule_participant where rule_participant.chat_id = ${sql.ref(chatColumn)} and rule_participant.user_id = ${userId})`;
}

/** The user whose id is in `userColumn` shares at least one chat with `userId`. */
export function userSharesChatWith(userColumn: string, userId: string): Expression<SqlBool> {
  return sql<SqlBool>`exists (select 1 from chat_participants as rule_mine join chat_participants as rule_theirs on rule_theirs.chat_id = rule_mine.chat_id where rule_mine.user_id = ${userId} and rule_theirs.user_id = ${sql.ref(userColumn)})`;
}

export function columnEquals(column: string, value: string): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} = ${value}`;
}

export function columnIn(column: string, values: readonly string[]): Expression<SqlBool> {
  if (values.length === 0) return never;
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join(values.map((value) => sql`${value}`))})`;
}

export function anyOf(conditions: readonly Expression<SqlBool>[]): Expression<SqlBool> {
  if (conditions.length === 0) return never;
  return sql<SqlBool>`(${sql.join(conditions, sql` or `)})`;
}

export function allOf(conditions: readonly Expression<SqlBool>[]): Expression<SqlBool> {
  if (conditions.length === 0) return always;
  return sql<SqlBool>`(${sql.join(conditions, sql` and `)})`;
}
