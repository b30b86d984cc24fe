import { allOf, columnIn } from '../store/conditions';
import { selectRows } from '../store/repositories/records';
import type { Store } from '../store/store';
import type { RecordCollection, RecordJson } from './collections/types';
import type { RequestAuth } from './context';

/** PocketBase allows expand paths up to 6 levels deep. */
export const maxExpandDepth = 6;

export type ExpandTree = Map<string, ExpandTree>;

/** "author,chat.creator" → {author: {}, chat: {creator: {}}}; deeper levels are cut off. */
export function parseExpand(expand: string | undefined): ExpandTree {
  const tree: ExpandTree = new Map();
  if (expand === undefined) return tree;
  for (const path of expand.split(',')) {
    let level = tree;
    for (const segment of path.trim().split('.').slice(0, maxExpandDepth)) {
      if (segment === '') break;
      let next = level.get(segment);
      if (next === undefined) {
        next = new Map();
        level.set(segment, next);
      }
      level = next;
    }
  }
  return tree;
}

function idsOf(value: unknown): string[] {
  if (typeof value === 'string') return value === '' ? [] : [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

/**
 * Fills `expand` on each record. Every related record must pass its own collection's view rule
 * for this caller, or it is silently left out (PocketBase semantics); multi relations become
 * arrays, single relations objects, and `expand` appears only where an expansion ran.
 */
export async function expandRecords(
  records: RecordJson[],
  collection: RecordCollection,
  tree: ExpandTree,
  context: { auth: RequestAuth; store: Store; collections: Map<string, RecordCollection> },
): Promise<void> {
  for (const [field, subtree] of tree) {
    const relation = collection.relations[field];
    const target = relation === undefined ? undefined : context.collections.get(relation.target);
    if (relation === undefined || target === undefined) continue;
    const wanted = [...new Set(records.flatMap((record) => idsOf(record[field])))];
    if (wanted.length === 0) continue;
    const rows = await selectRows(
      context.store.database.db,
      target.table,
      allOf([columnIn(`${target.table}.id`, wanted), target.viewCondition(context.auth)]),
    );
    const related = await target.serialize(rows, context.auth);
    await expandRecords(related, target, subtree, context);
    const byId = new Map(related.map((record) => [record.id, record]));
    for (const record of records) {
      const value = record[field];
      let expanded: unknown;
      if (Array.isArray(value)) {
        const items = idsOf(value).flatMap((id) => byId.get(id) ?? []);
        expanded = items.length > 0 ? items : undefined;
      } else {
        expanded = typeof value === 'string' ? byId.get(value) : undefined;
      }
      if (expanded === undefined) continue;
      const existing = (record['expand'] as Record<string, unknown> | undefined) ?? {};
      record['expand'] = { ...existing, [field]: expanded };
    }
  }
}
