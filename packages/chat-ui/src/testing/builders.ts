import type { ChatRecord, SearchResultsData, UserRecord } from '@confab/client';
import type { ClientMessage } from '../internal/chatClient';

/* Fixture builders for tests and stories (docs/STYLE.md, Tests beside the code, with builders): defaults plus the fields that matter. */

export function userRecordOf(id: string, username: string, name = '', type = 'user'): UserRecord {
  return { id, username, name, type, created: '2026-01-01 00:00:00.000Z', updated: '2026-01-01 00:00:00.000Z' };
}

export function chatRecord(overrides: Partial<ChatRecord> & { id: string; name: string }): ChatRecord {
  return {
    description: '',
    creator: 'user00000000001',
    participants: [],
    admins: [],
    created: '2026-01-01 00:00:00.000Z',
    updated: '2026-01-01 00:00:00.000Z',
    ...overrides,
  };
}

let messageCounter = 0;

/** A confirmed message; `minutesAgo` is relative to `now` (default: the current time). */
export function clientMessage(
  overrides: Partial<ClientMessage> & { content: string },
  options: { minutesAgo?: number; now?: number } = {},
): ClientMessage {
  messageCounter += 1;
  const now = options.now ?? Date.now();
  return {
    message_id: `msg${String(messageCounter).padStart(12, '0')}`,
    chat_id: 'chat00000000001',
    author_id: 'user00000000002',
    author_name: 'Bob Builder',
    author_username: 'bob',
    created_at: new Date(now - (options.minutesAgo ?? 1) * 60_000).toISOString(),
    message_type: 'regular',
    seq: messageCounter,
    status: 'sent',
    is_agent: false,
    ...overrides,
  };
}

/** `count` messages in order, alternating authors, the last one a minute old. */
export function messageHistory(count: number, chatId = 'chat00000000001', now = Date.now()): ClientMessage[] {
  const authors = [
    { author_id: 'user00000000002', author_name: 'Bob Builder', author_username: 'bob', is_agent: false },
    { author_id: 'user00000000003', author_name: 'Carol', author_username: 'carol', is_agent: false },
    { author_id: 'agent0000000001', author_name: 'Deep Research', author_username: 'deep', is_agent: true },
  ];
  return Array.from({ length: count }, (_, index) => {
    const author = authors[index % authors.length] ?? authors[0];
    return clientMessage(
      { ...author, chat_id: chatId, seq: index + 1, message_id: `${chatId}-m${index + 1}`, content: `Message ${index + 1}${index % 7 === 0 ? '\nwith a second line' : ''}` },
      { minutesAgo: count - index, now },
    );
  });
}

export function searchResultsData(count: number, overrides: Partial<SearchResultsData> = {}): SearchResultsData {
  return {
    type: 'search_results',
    query_summary: 'open-source vector databases',
    total_results: count,
    searches_performed: 3,
    created_at: '2026-01-05T12:00:00Z',
    metadata: { truncated: false },
    results: Array.from({ length: count }, (_, index) => ({
      title: `Result ${index + 1}`,
      url: `https://example${index + 1}.com/article`,
      domain: `example${index + 1}.com`,
      snippet: `Snippet ${index + 1}: ${'lorem ipsum dolor sit amet '.repeat(8)}`,
      rank: index + 1,
      relevance_score: index % 2 === 0 ? 0.9 - index / 100 : undefined,
      source_query: index % 3 === 0 ? 'vector database comparison' : undefined,
    })),
    ...overrides,
  };
}
