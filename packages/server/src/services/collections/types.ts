import type { Expression, SqlBool } from 'kysely';
import type { CollectionSchema } from '../../store/filter/types';
import type { RequestAuth } from '../context';
import type { Body } from '../input';

/** A record as it goes out on the wire. */
export type RecordJson = { id: string } & Record<string, unknown>;

export interface RelationDefinition {
  target: string;
}

/** The outcome of a create: the new id, and whose eyes the response is rendered for. */
export interface CreatedRecord {
  id: string;
  /** Defaults to the caller; a registration is shown as its new owner sees it. */
  viewAs?: RequestAuth;
  /** The row as stored, when the create already read it back (a message): shown without reading it again. */
  row?: unknown;
}

/**
 * One collection of the record API. Its access rules live here and nowhere else:
 * `viewCondition` is both the list and the view rule (PocketBase semantics: unsatisfied list →
 * fewer items, unsatisfied view/update/delete → 404, unsatisfied create → 400).
 */
export interface RecordCollection {
  name: string;
  id: string;
  table: 'users' | 'chats' | 'messages' | 'files';
  schema: CollectionSchema;
  relations: Record<string, RelationDefinition>;
  viewCondition(auth: RequestAuth): Expression<SqlBool>;
  /**
   * Renders rows (already allowed by `viewCondition`) for this caller. `wanted` tells whether the
   * caller's `fields` keep a top-level field; a field that costs a query of its own may be left out
   * when it does not.
   */
  serialize(rows: readonly unknown[], auth: RequestAuth, wanted?: (field: string) => boolean): Promise<RecordJson[]>;
  create(auth: RequestAuth, body: Body): Promise<CreatedRecord>;
  update(auth: RequestAuth, id: string, body: Body): Promise<void>;
  delete(auth: RequestAuth, id: string): Promise<void>;
  /**
   * Optional: refuses a list whose filter pins `chat = '<id>'` (the ids given) to a chat the caller
   * may not see, with the 404 the view, download and delete of its records would give.
   */
  checkList?(auth: RequestAuth, filteredChatIds: readonly string[]): Promise<void>;
}

/** PocketBase-style collection ids; stable so clients may cache them. */
export const collectionIds = {
  users: '_pb_users_auth_',
  chats: 'pbc_3861817060',
  messages: 'pbc_2605467279',
  files: 'pbc_1307496212',
} as const;

export function booleanOf(value: number | null | undefined): boolean {
  return value === 1;
}
