import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { initialMigration } from './001_initial';
import { messageSeqMigration } from './002_message_seq';
import { serverClaimsMigration } from './003_server_claims';
import { invitationInviteeMigration } from './004_invitation_invitee';
import { agentsMigration } from './005_agents';
import { dropsMigration } from './006_drops';
import { dropFeedIndexesMigration } from './007_drop_feed_indexes';
import { aiUsageMigration } from './008_ai_usage';
import { workspaceSearchMigration } from './009_workspace_search';
import { inboundMailsMigration } from './010_inbound_mails';
import { emailDraftsMigration } from './011_email_drafts';
import { chatReadsMigration } from './012_chat_reads';
import { messageEditsMigration } from './013_message_edits';
import { messageReactionsMigration } from './014_message_reactions';
import { messageRepliesMigration } from './015_message_replies';
import { fileAndSystemMessagesMigration } from './016_file_and_system_messages';
import { notificationsMigration } from './017_notifications';
import { mentionTimesMigration } from './018_mention_times';
import { mailQueueMigration } from './019_mail_queue';

/** Migrations live in code (bundled by tsup), so no folder has to ship beside dist/. */
const migrations: Record<string, Migration> = {
  '001_initial': initialMigration,
  '002_message_seq': messageSeqMigration,
  '003_server_claims': serverClaimsMigration,
  '004_invitation_invitee': invitationInviteeMigration,
  '005_agents': agentsMigration,
  '006_drops': dropsMigration,
  '007_drop_feed_indexes': dropFeedIndexesMigration,
  '008_ai_usage': aiUsageMigration,
  '009_workspace_search': workspaceSearchMigration,
  '010_inbound_mails': inboundMailsMigration,
  '011_email_drafts': emailDraftsMigration,
  '012_chat_reads': chatReadsMigration,
  '013_message_edits': messageEditsMigration,
  '014_message_reactions': messageReactionsMigration,
  '015_message_replies': messageRepliesMigration,
  '016_file_and_system_messages': fileAndSystemMessagesMigration,
  '017_notifications': notificationsMigration,
  '018_mention_times': mentionTimesMigration,
  '019_mail_queue': mailQueueMigration,
};

/** Every migration's name, oldest first: the last is the schema version this server migrates to. */
export const migrationNames: readonly string[] = Object.keys(migrations).sort();

class InCodeMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

/** Brings the schema to the latest version; throws with the failing migration's error. */
export async function migrateToLatest(db: Kysely<unknown>, schema?: string): Promise<void> {
  // With a schema, Kysely must look for its own tables there: otherwise it finds another schema's
  // kysely_migration_lock on the same PostgreSQL server and never creates its own.
  const migrator = new Migrator({
    db,
    provider: new InCodeMigrationProvider(),
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
  let { error, results } = await migrator.migrateToLatest();
  // Before it migrates, Kysely's migrator reads the catalog of every schema on the PostgreSQL
  // server, by name: a schema someone else drops meanwhile (test runs drop theirs as they end)
  // fails that read with "schema … does not exist" though ours is fine. Read again.
  for (let attempt = 1; attempt < 4 && error !== undefined && droppedMeanwhile(error, schema); attempt += 1) {
    ({ error, results } = await migrator.migrateToLatest());
  }
  if (error !== undefined) {
    const failed = results?.find((result) => result.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${String(error)}`, { cause: error });
  }
}

/**
 * Brings the schema to the migration `name` exactly, up or down: for tests that need a database of
 * an older version (a backup made by one, test/backup.test.ts).
 */
export async function migrateTo(db: Kysely<unknown>, name: string): Promise<void> {
  const migrator = new Migrator({ db, provider: new InCodeMigrationProvider() });
  const { error } = await migrator.migrateTo(name);
  if (error !== undefined) throw new Error(`Migrating to ${name} failed: ${String(error)}`, { cause: error });
}

/** PostgreSQL's 3F000 (no such schema) about a schema other than the one being migrated. */
function droppedMeanwhile(error: unknown, schema: string | undefined): boolean {
  if ((error as { code?: unknown } | undefined)?.code !== '3F000') return false;
  const missing = /schema "([^"]+)" does not exist/.exec(String((error as Error).message))?.[1];
  return missing !== undefined && missing !== (schema ?? 'public');
}
