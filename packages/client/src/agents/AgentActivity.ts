import type {
  AgentNoticeFrame,
  AgentStatusChangedFrame,
  StreamAbortedFrame,
  StreamDeltaFrame,
  StreamSnapshotFrame,
  StreamStartedFrame,
} from '../protocol';
import type { RealtimeConnection } from '../realtime/RealtimeConnection';
import type { ClientState, ConfabStore } from '../store/createConfabStore';
import type { AgentNotice, ClientMessage } from '../types';

export interface AgentActivityDependencies {
  store: ConfabStore;
  realtime: RealtimeConnection;
  /** The chat whose activity the store shows (client.messages' open chat), or null. */
  openChatId: () => string | null;
  /** The clock of notices' received_at; default the current time. */
  now?: () => Date;
}

/** The message_id of a streamed reply's placeholder. */
export function streamPlaceholderId(streamId: string): string {
  return `stream:${streamId}`;
}

/**
 * The reply so far with `text` placed at `offset`: a repeat changes nothing, an overlap is
 * overwritten, and a gap (a delta missed) gives null, so the caller keeps what it has until the
 * final message replaces it.
 */
export function applyStreamDelta(content: string, offset: number, text: string): string | null {
  if (!Number.isInteger(offset) || offset < 0 || offset > content.length) return null;
  if (offset + text.length <= content.length) return content;
  return content.slice(0, offset) + text;
}

/**
 * The store's part of a new_message for the open chat that may end agent activity: the growing
 * placeholder of its stream is dropped (the caller merges the final message in the same update),
 * and the author's status line ends with its reply.
 */
export function settleReply(state: ClientState, message: Pick<ClientMessage, 'author_id' | 'is_agent'>, streamId: string | undefined): Partial<ClientState> {
  const update: Partial<ClientState> = {};
  if (streamId !== undefined && streamId !== '') {
    const placeholderId = streamPlaceholderId(streamId);
    if (state.messages.some((candidate) => candidate.message_id === placeholderId)) {
      update.messages = state.messages.filter((candidate) => candidate.message_id !== placeholderId);
    }
  }
  if (message.is_agent && state.agentStatuses.some((line) => line.agent.id === message.author_id)) {
    update.agentStatuses = state.agentStatuses.filter((line) => line.agent.id !== message.author_id);
  }
  return update;
}

/**
 * What agents are doing in the open chat, from the gateway's frames for people (docs/CONTRACTS.md
 * "Agents"): streamed replies as placeholder messages in store.messages that grow in place
 * (status 'streaming', seq null, message_id `stream:<stream_id>`), their status lines in
 * store.agentStatuses, and notices about the user's own mentions in store.agentNotices.
 * client.messages owns it: the final new_message of a stream replaces its placeholder there
 * (settleReply), in the same store update.
 */
export class AgentActivity {
  /** Placeholders that may have ended while the socket was down; a snapshot after rejoining keeps them. */
  private readonly stale = new Set<string>();
  private readonly now: () => Date;

  constructor(private readonly dependencies: AgentActivityDependencies) {
    this.now = dependencies.now ?? (() => new Date());
    const { realtime } = dependencies;
    realtime.on('stream_started', (frame) => this.started(frame));
    realtime.on('stream_snapshot', (frame) => this.snapshot(frame));
    realtime.on('stream_delta', (frame) => this.delta(frame));
    realtime.on('stream_aborted', (frame) => this.aborted(frame));
    realtime.on('agent_status', (frame) => this.status(frame));
    realtime.on('agent_notice', (frame) => this.notice(frame));
    realtime.on('state', ({ state }) => {
      if (state === 'connected') return;
      // Whatever ends while disconnected is never announced: statuses go now, and placeholders
      // go after the rejoin unless a stream_snapshot shows they are still growing.
      for (const message of this.dependencies.store.getState().messages) {
        if (message.status === 'streaming' && message.stream_id !== undefined) this.stale.add(message.stream_id);
      }
      if (this.dependencies.store.getState().agentStatuses.length > 0) this.dependencies.store.setState({ agentStatuses: [] });
    });
    realtime.on('joined', ({ chat_id }) => {
      if (chat_id !== this.dependencies.openChatId() || this.stale.size === 0) return;
      const gone = new Set([...this.stale].map(streamPlaceholderId));
      this.stale.clear();
      this.update((state) => ({ messages: state.messages.filter((message) => !gone.has(message.message_id)) }));
    });
  }

  /** Another chat opened, or none: statuses and notices belonged to the chat that was open. */
  reset(): void {
    this.stale.clear();
    const { agentStatuses, agentNotices } = this.dependencies.store.getState();
    if (agentStatuses.length > 0 || agentNotices.length > 0) this.dependencies.store.setState({ agentStatuses: [], agentNotices: [] });
  }

  private isOpen(chatId: string): boolean {
    return chatId === this.dependencies.openChatId();
  }

  /** Applies a change computed from the current state; an empty change notifies nobody. */
  private update(change: (state: ClientState) => Partial<ClientState>): void {
    const { store } = this.dependencies;
    const partial = change(store.getState());
    if (Object.keys(partial).length > 0) store.setState(partial);
  }

  private started(frame: StreamStartedFrame): void {
    if (!this.isOpen(frame.chat_id)) return;
    this.put(frame, '');
  }

  private snapshot(frame: StreamSnapshotFrame): void {
    if (!this.isOpen(frame.chat_id)) return;
    this.stale.delete(frame.stream_id);
    this.put(frame, frame.text);
  }

  /** Adds the placeholder, or (a snapshot after a reconnect) replaces its text. */
  private put(frame: StreamStartedFrame | StreamSnapshotFrame, text: string): void {
    const id = streamPlaceholderId(frame.stream_id);
    this.update((state) => {
      const index = state.messages.findIndex((message) => message.message_id === id);
      const existing = state.messages[index];
      if (existing !== undefined) {
        if (existing.content === text || (text === '' && frame.type === 'stream_started')) return {};
        const messages = [...state.messages];
        messages[index] = { ...existing, content: text };
        return { messages };
      }
      const placeholder: ClientMessage = {
        message_id: id,
        chat_id: frame.chat_id,
        author_id: frame.agent.id,
        author_name: frame.agent.name || frame.agent.username,
        author_username: frame.agent.username,
        content: text,
        created_at: frame.started_at,
        message_type: 'regular',
        seq: null,
        status: 'streaming',
        is_agent: true,
        stream_id: frame.stream_id,
      };
      return { messages: [...state.messages, placeholder] };
    });
  }

  private delta(frame: StreamDeltaFrame): void {
    if (!this.isOpen(frame.chat_id)) return;
    const id = streamPlaceholderId(frame.stream_id);
    this.update((state) => {
      const index = state.messages.findIndex((message) => message.message_id === id);
      const existing = state.messages[index];
      if (existing === undefined) return {};
      const content = applyStreamDelta(existing.content, frame.offset, frame.text);
      if (content === null || content === existing.content) return {};
      const messages = [...state.messages];
      messages[index] = { ...existing, content };
      return { messages };
    });
  }

  private aborted(frame: StreamAbortedFrame): void {
    if (!this.isOpen(frame.chat_id)) return;
    this.stale.delete(frame.stream_id);
    const id = streamPlaceholderId(frame.stream_id);
    this.update((state) => {
      const placeholder = state.messages.find((message) => message.message_id === id);
      if (placeholder === undefined) return {};
      return {
        messages: state.messages.filter((message) => message !== placeholder),
        agentStatuses: state.agentStatuses.filter((line) => line.agent.id !== placeholder.author_id),
      };
    });
  }

  private status(frame: AgentStatusChangedFrame): void {
    if (!this.isOpen(frame.chat_id)) return;
    const text = frame.text.trim();
    this.update((state) => {
      const others = state.agentStatuses.filter((line) => line.agent.id !== frame.agent.id);
      if (text === '') return others.length === state.agentStatuses.length ? {} : { agentStatuses: others };
      const index = state.agentStatuses.findIndex((line) => line.agent.id === frame.agent.id);
      const line = { chat_id: frame.chat_id, agent: frame.agent, text };
      if (index === -1) return { agentStatuses: [...state.agentStatuses, line] };
      const agentStatuses = [...state.agentStatuses];
      agentStatuses[index] = line;
      return { agentStatuses };
    });
  }

  private notice(frame: AgentNoticeFrame): void {
    if (!this.isOpen(frame.chat_id)) return;
    const notice: AgentNotice = {
      id: `${frame.message_id}:${frame.agent_username}:${frame.reason}`,
      chat_id: frame.chat_id,
      message_id: frame.message_id,
      agent_username: frame.agent_username,
      reason: frame.reason,
      text: frame.text,
      received_at: this.now().toISOString(),
    };
    this.update((state) =>
      state.agentNotices.some((existing) => existing.id === notice.id) ? {} : { agentNotices: [...state.agentNotices, notice] },
    );
  }
}
