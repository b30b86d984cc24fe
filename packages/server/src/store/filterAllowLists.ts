import type { CollectionSchema, SchemaRegistry } from './filter/types';

/**
 * Filter/sort allow-lists per collection. Hidden fields (e-mail, password hash, token key, API
 * keys, message ciphertext) are deliberately absent, so they can never be probed through a filter.
 */

const timestamps = {
  created: { kind: 'date', column: 'created' },
  updated: { kind: 'date', column: 'updated' },
} as const;

export const usersSchema: CollectionSchema = {
  name: 'users',
  table: 'users',
  fields: {
    id: { kind: 'text', column: 'id' },
    username: { kind: 'text', column: 'username' },
    name: { kind: 'text', column: 'name' },
    type: { kind: 'text', column: 'type' },
    // Not created_by or dev_room_id: only an agent's owner sees them (docs/SECURITY.md G14), and
    // a filter or sort would tell anyone whose agents are whose. Owners list theirs with
    // GET /api/agents/mine.
    site_wide_available: { kind: 'bool', column: 'site_wide_available' },
    ...timestamps,
  },
};

export const chatsSchema: CollectionSchema = {
  name: 'chats',
  table: 'chats',
  fields: {
    id: { kind: 'text', column: 'id' },
    name: { kind: 'text', column: 'name' },
    description: { kind: 'text', column: 'description' },
    creator: { kind: 'relation', column: 'creator', target: 'users' },
    participants: {
      kind: 'multiRelation', joinTable: 'chat_participants', ownerColumn: 'chat_id', valueColumn: 'user_id', target: 'users',
    },
    admins: { kind: 'multiRelation', joinTable: 'chat_admins', ownerColumn: 'chat_id', valueColumn: 'user_id', target: 'users' },
    email_address: { kind: 'text', column: 'email_address' },
    is_inbox: { kind: 'bool', column: 'is_inbox' },
    auto_route_enabled: { kind: 'bool', column: 'auto_route_enabled' },
    auto_route_agent: { kind: 'text', column: 'auto_route_agent' },
    agent_permissions: { kind: 'json', column: 'agent_permissions' },
    ...timestamps,
  },
};

export const messagesSchema: CollectionSchema = {
  name: 'messages',
  table: 'messages',
  fields: {
    id: { kind: 'text', column: 'id' },
    chat: { kind: 'relation', column: 'chat', target: 'chats' },
    author: { kind: 'relation', column: 'author', target: 'users' },
    message_type: { kind: 'text', column: 'message_type' },
    client_id: { kind: 'text', column: 'client_id' },
    seq: { kind: 'number', column: 'seq' },
    // A thread's replies: `chat = X && reply_to = Y` (docs/CONTRACTS.md, Replies).
    reply_to: { kind: 'text', column: 'reply_to' },
    ...timestamps,
  },
};

export const filesSchema: CollectionSchema = {
  name: 'files',
  table: 'files',
  fields: {
    id: { kind: 'text', column: 'id' },
    chat: { kind: 'relation', column: 'chat', target: 'chats' },
    uploaded_by: { kind: 'relation', column: 'uploaded_by', target: 'users' },
    file: { kind: 'text', column: 'file' },
    description: { kind: 'text', column: 'description' },
    ...timestamps,
  },
};

export const schemaRegistry: SchemaRegistry = {
  users: usersSchema,
  chats: chatsSchema,
  messages: messagesSchema,
  files: filesSchema,
};
