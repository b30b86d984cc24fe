import { stripUnsafeCharacters } from '@confab/client/rules';
import { fieldErrors, type FieldError, type FieldErrors } from '../../errors';
import { chatsSchema } from '../../store/filterAllowLists';
import { chatHasParticipant, never } from '../../store/conditions';
import { formatTimestamp, newRecordId, randomAlphanumeric } from '../../store/ids';
import type { ChatMembers, ChatRow } from '../../store/repositories/chats';
import type { UserRow } from '../../store/repositories/users';
import { linePerson, type Announcements } from '../announcements';
import type { ChatEvents } from '../chatEvents';
import type { RequestAuth, ServiceContext } from '../context';
import { applyRelationModifiers, hasField, readBoolean, readString, type Body } from '../input';
import { recordErrors, throwIfErrors } from '../recordErrors';
import { booleanOf, collectionIds, type RecordCollection, type RecordJson } from './types';

const nameMaximum = 200;
const descriptionMaximum = 2000;

/** Field errors of the chat admin rules, worded for the person who broke them. */
const membershipErrors = {
  removeSelf: (): FieldError => ({ code: 'validation_invalid_value', message: 'You cannot remove yourself from the chat.' }),
  demoteSelf: (): FieldError => ({ code: 'validation_invalid_value', message: 'You cannot demote yourself; a chat keeps at least one admin.' }),
  permissions: (): FieldError => ({
    code: 'validation_invalid_value',
    message: 'agent_permissions must be an object {confab_agents: boolean, developer_agents: boolean, agents_may_read_files: boolean}.',
  }),
} as const;

function slugOf(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 24);
  return slug === '' ? 'chat' : slug;
}

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * docs/PRODUCT.md §3: confab agents are on unless false, developer agents off unless true. Agents
 * may ask @data and @deep about the chat's files only when true (docs/SECURITY.md G12); like the
 * rest, only the chat's admins change it (update is theirs alone).
 */
function readAgentPermissions(value: unknown): string | undefined {
  if (value === null) return undefined;
  const parsed = typeof value === 'string' ? parseJson(value) : value;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  return JSON.stringify(resolvedAgentPermissions(parsed as Record<string, unknown>));
}

function resolvedAgentPermissions(record: Record<string, unknown>) {
  return { confab_agents: record['confab_agents'] !== false, developer_agents: record['developer_agents'] === true, agents_may_read_files: record['agents_may_read_files'] === true };
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Chat records as the record API sends them (the same for every reader: membership decides who reads). */
export async function chatsToJson(context: ServiceContext, chats: readonly ChatRow[]): Promise<RecordJson[]> {
  const members = await context.store.chats.membersOf(chats.map((chat) => chat.id));
  return chats.map((chat) => ({
    id: chat.id,
    collectionId: collectionIds.chats,
    collectionName: 'chats',
    name: chat.name,
    description: chat.description,
    creator: chat.creator ?? '',
    participants: members.get(chat.id)?.participants ?? [],
    admins: members.get(chat.id)?.admins ?? [],
    email_address: chat.email_address,
    inbox_address: `${chat.email_address}@${context.config.mailDomain}`,
    is_inbox: booleanOf(chat.is_inbox),
    auto_route_enabled: booleanOf(chat.auto_route_enabled),
    auto_route_agent: chat.auto_route_agent,
    agent_permissions: resolvedAgentPermissions(asRecord(parseJson(chat.agent_permissions))),
    last_seq: Number(chat.last_seq),
    created: chat.created,
    updated: chat.updated,
  }));
}

/** The caller's read state in a chat record (store/repositories/reads.ts). */
const readStateFields = ['last_read_seq', 'unread_count', 'mention_count', 'muted', 'notify_level'] as const;

/** Rules of the chats collection: participants read; any user creates; admins update and delete. */
export class ChatsCollection implements RecordCollection {
  readonly name = 'chats';
  readonly id = collectionIds.chats;
  readonly table = 'chats' as const;
  readonly schema = chatsSchema;
  readonly relations = { creator: { target: 'users' }, participants: { target: 'users' }, admins: { target: 'users' } };

  constructor(
    private readonly context: ServiceContext,
    private readonly events: ChatEvents,
    private readonly announcements: Announcements,
  ) {}

  viewCondition(auth: RequestAuth) {
    return auth.user === undefined ? never : chatHasParticipant('chats.id', auth.user.id);
  }

  /** As chatsToJson, plus the caller's read state of each chat (docs/CONTRACTS.md, Unread state). */
  async serialize(rows: readonly unknown[], auth: RequestAuth, wanted: (field: string) => boolean = () => true): Promise<RecordJson[]> {
    const chats = rows as ChatRow[];
    const readStateWanted = readStateFields.some(wanted);
    const [records, states] = await Promise.all([
      chatsToJson(this.context, chats),
      auth.user === undefined || !readStateWanted ? undefined : this.context.store.reads.statesOf(auth.user.id, chats.map((chat) => chat.id)),
    ]);
    if (states === undefined) return records;
    return records.map((record) => ({ ...record, ...states.get(record.id) }));
  }

  private async validateMembers(errors: FieldErrors, field: string, ids: string[] | null | undefined): Promise<void> {
    if (ids === null) {
      errors[field] = fieldErrors.invalidValue();
      return;
    }
    if (ids === undefined) return;
    const existing = await this.context.store.users.existingIds(ids);
    if (ids.some((id) => !existing.has(id))) errors[field] = fieldErrors.missingRecords();
  }

  /** `required` rejects blank values; `mustBePresent` also rejects an absent field (creates). */
  private validateText(
    errors: FieldErrors,
    body: Body,
    field: string,
    limits: { maximum: number; required: boolean; mustBePresent: boolean },
  ): string | undefined {
    const { maximum, required, mustBePresent } = limits;
    if (!hasField(body, field)) {
      if (mustBePresent) errors[field] = fieldErrors.required();
      return undefined;
    }
    // Names are shown to others: no invisible controls or bidi overrides.
    const value = stripUnsafeCharacters(readString(body, field) ?? '').trim();
    if (required && value === '') errors[field] = fieldErrors.required();
    else if (value.length > maximum) errors[field] = fieldErrors.maxText(maximum);
    return value;
  }

  private async uniqueEmailAddress(name: string): Promise<string> {
    for (;;) {
      const candidate = `${slugOf(name)}-${randomAlphanumeric(6)}`;
      if (!(await this.context.store.chats.emailAddressTaken(candidate))) return candidate;
    }
  }

  /** The creator is forced to the caller and always becomes a participant and an admin. */
  async create(auth: RequestAuth, body: Body) {
    if (auth.user === undefined) throw recordErrors.createFailed();
    const me = auth.user.id;
    const errors: FieldErrors = {};
    const name = this.validateText(errors, body, 'name', { maximum: nameMaximum, required: true, mustBePresent: true });
    const description = this.validateText(errors, body, 'description', {
      maximum: descriptionMaximum,
      required: false,
      mustBePresent: false,
    });
    const admins = applyRelationModifiers(body, 'admins', []);
    const participants = applyRelationModifiers(body, 'participants', []);
    await this.validateMembers(errors, 'participants', participants);
    await this.validateMembers(errors, 'admins', admins);
    throwIfErrors(errors, recordErrors.createFailed);
    const adminIds = [...new Set([me, ...(admins ?? [])])];
    const members: ChatMembers = { admins: adminIds, participants: [...new Set([me, ...(participants ?? []), ...adminIds])] };
    const now = formatTimestamp(this.context.config.now());
    const id = newRecordId();
    await this.context.store.chats.insert(
      {
        id,
        name: name ?? '',
        description: description ?? '',
        creator: me,
        email_address: await this.uniqueEmailAddress(name ?? ''),
        is_inbox: 0,
        auto_route_enabled: readBoolean(body, 'auto_route_enabled') === true ? 1 : 0,
        auto_route_agent: (readString(body, 'auto_route_agent') ?? '').trim(),
        agent_permissions: readAgentPermissions(body['agent_permissions']) ?? null,
        created: now,
        updated: now,
      },
      members,
    );
    await this.events.changed(id, [], members.participants);
    return { id };
  }

  /** Admins only; an admin never removes or demotes themselves; admins stay a subset of participants. */
  async update(auth: RequestAuth, id: string, body: Body): Promise<void> {
    const chat = await this.context.store.chats.findById(id);
    const current = chat === undefined ? undefined : (await this.context.store.chats.membersOf([id])).get(id);
    if (auth.user === undefined || chat === undefined || current === undefined || !current.admins.includes(auth.user.id)) {
      throw recordErrors.notFound();
    }
    const me = auth.user.id;
    const errors: FieldErrors = {};
    const changes: Record<string, string | number | null> = {};
    const name = this.validateText(errors, body, 'name', { maximum: nameMaximum, required: true, mustBePresent: false });
    if (name !== undefined) changes['name'] = name;
    const description = this.validateText(errors, body, 'description', {
      maximum: descriptionMaximum,
      required: false,
      mustBePresent: false,
    });
    if (description !== undefined) changes['description'] = description;
    if (hasField(body, 'auto_route_enabled')) changes['auto_route_enabled'] = readBoolean(body, 'auto_route_enabled') === true ? 1 : 0;
    if (hasField(body, 'auto_route_agent')) changes['auto_route_agent'] = (readString(body, 'auto_route_agent') ?? '').trim();
    if (hasField(body, 'agent_permissions')) {
      const permissions = readAgentPermissions(body['agent_permissions']);
      if (permissions === undefined && body['agent_permissions'] !== null) errors['agent_permissions'] = membershipErrors.permissions();
      changes['agent_permissions'] = permissions ?? null;
    }
    let participants = applyRelationModifiers(body, 'participants', current.participants);
    let admins = applyRelationModifiers(body, 'admins', current.admins);
    await this.validateMembers(errors, 'participants', participants);
    await this.validateMembers(errors, 'admins', admins);
    if (participants && !participants.includes(me)) errors['participants'] = membershipErrors.removeSelf();
    if (admins && !admins.includes(me)) errors['admins'] = membershipErrors.demoteSelf();
    throwIfErrors(errors, recordErrors.updateFailed);
    if (participants || admins) {
      participants = participants ?? current.participants;
      admins = admins ?? current.admins;
      const participantSet = new Set(participants);
      // A promoted user joins the chat; a removed participant loses admin rights with it.
      const removedByThisUpdate = new Set(current.participants.filter((userId) => !participantSet.has(userId)));
      admins = admins.filter((userId) => !removedByThisUpdate.has(userId));
      participants = [...new Set([...participants, ...admins])];
    }
    await this.context.store.chats.update(
      id,
      { ...changes, updated: formatTimestamp(this.context.config.now()) },
      { ...(participants ? { participants } : {}), ...(admins ? { admins } : {}) },
    );
    await this.events.changed(id, current.participants, participants ?? current.participants);
    await this.announceUpdate(auth.user, chat, current.participants, participants ?? current.participants, name);
  }

  /**
   * System lines for what an update changed (docs/CONTRACTS.md, File messages and system lines):
   * each person added or removed, and a new name. Descriptions and agent settings pass quietly.
   */
  private async announceUpdate(actor: UserRow, chat: ChatRow, before: readonly string[], after: readonly string[], name: string | undefined): Promise<void> {
    const added = after.filter((userId) => !before.includes(userId));
    const removed = before.filter((userId) => !after.includes(userId));
    const people = new Map((await this.context.store.users.findManyByIds([...added, ...removed])).map((user) => [user.id, user]));
    for (const userId of added) {
      const subject = people.get(userId);
      if (subject !== undefined) await this.announcements.systemLine(chat.id, actor, { kind: 'added', subject: linePerson(subject) });
    }
    for (const userId of removed) {
      const subject = people.get(userId);
      if (subject !== undefined) await this.announcements.systemLine(chat.id, actor, { kind: 'removed', subject: linePerson(subject) });
    }
    if (name !== undefined && name !== chat.name) await this.announcements.systemLine(chat.id, actor, { kind: 'renamed', name });
  }

  async delete(auth: RequestAuth, id: string): Promise<void> {
    const members = (await this.context.store.chats.membersOf([id])).get(id);
    const chat = await this.context.store.chats.findById(id);
    if (auth.user === undefined || chat === undefined || members === undefined || !members.admins.includes(auth.user.id)) {
      throw recordErrors.notFound();
    }
    // Rows of messages and files go with the chat (foreign keys cascade); the bytes go first, so a
    // store that is down answers 503 and leaves a chat to delete again rather than unreachable bytes.
    await this.context.files.deletePrefix(`${id}/`);
    await this.context.store.chats.delete(id);
    await this.events.deleted(id, members.participants);
  }
}
