import type { Kysely } from 'kysely';
import type { ConfabDatabase } from '../../store/database';
import { newRecordId } from '../../store/ids';

/** The `ai_usage` table (migration 008), kept beside the gateway that writes it. */
interface AiUsageTable {
  id: string;
  user: string;
  provider: string;
  model: string;
  key_owner: string;
  input_tokens: number;
  output_tokens: number;
  created: string;
}

function usageDb(database: ConfabDatabase): Kysely<{ ai_usage: AiUsageTable }> {
  return database.db.withTables<{ ai_usage: AiUsageTable }>() as unknown as Kysely<{ ai_usage: AiUsageTable }>;
}

/** Records the tokens of one provider call for the person who invoked it. */
export async function recordAiUsage(
  database: ConfabDatabase,
  input: { userId: string; provider: string; model: string; keyOwner: string; inputTokens: number; outputTokens: number; created: string },
): Promise<void> {
  await usageDb(database)
    .insertInto('ai_usage')
    .values({
      id: newRecordId(),
      user: input.userId,
      provider: input.provider,
      model: input.model.slice(0, 200),
      key_owner: input.keyOwner,
      input_tokens: Math.max(0, Math.round(input.inputTokens)),
      output_tokens: Math.max(0, Math.round(input.outputTokens)),
      created: input.created,
    })
    .execute();
}

/** Every token (input and output) the person's calls used, whichever key paid. */
export async function aiTokensUsed(database: ConfabDatabase, userId: string): Promise<number> {
  const row = await usageDb(database)
    .selectFrom('ai_usage')
    .select((builder) => builder.fn.sum<number | string | null>('input_tokens').as('input'))
    .select((builder) => builder.fn.sum<number | string | null>('output_tokens').as('output'))
    .where('user', '=', userId)
    .executeTakeFirst();
  return Number(row?.input ?? 0) + Number(row?.output ?? 0);
}
