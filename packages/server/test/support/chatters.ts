/**
 * People for the fault tests, speaking the wire protocol of docs/CONTRACTS.md with raw frames and
 * behaving as `@confab/client` does where faults matter: a socket that drops reconnects and
 * re-joins each chat with `after_seq` (the last seq held), and a send not yet acknowledged is sent
 * again with the same `client_id` (the server stores it once). Every seq that arrives is recorded
 * in arrival order, so a test can check that each person saw 1..N exactly once, in order.
 */
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { postJson } from './builtServer';
import { sleep } from './faultInfra';
import { websocketUrl, type Frame } from './wsClient';

export interface Send {
  clientId: string;
  chatId: string;
  via: 'ws' | 'http';
  startedAt: number;
  /** When the server acknowledged it: the sender's new_message with its client_id (ws), a 200 (http). */
  ackedAt?: number;
  attempts: number;
  lastAttemptAt: number;
  /** HTTP statuses (or 0: no answer) of the attempts that failed. */
  failures: number[];
}

/** A WebSocket send unanswered this long is sent again, as the client's retry does. */
const resendAfterMs = 5_000;
const httpTimeoutMs = 8_000;

export class Chatter {
  /** Chat id → seqs in the order they arrived, over every socket this person had. */
  readonly received = new Map<string, number[]>();
  readonly sends: Send[] = [];
  /** Sockets opened after the first. */
  reconnects = 0;
  /** Error frames received, as `code: message (ref)`. */
  readonly errors: string[] = [];
  private readonly byClientId = new Map<string, Send>();
  private socket: WebSocket | undefined;
  private joining = new Set<string>();
  private ready = false;
  private stopped = false;
  private readonly resender: NodeJS.Timeout;

  constructor(
    readonly name: string,
    readonly token: string,
    readonly userId: string,
    /** The base URL to reach the server at (a proxy, or one instance). */
    private readonly url: () => string,
    readonly chats: readonly string[],
  ) {
    for (const chatId of chats) this.received.set(chatId, []);
    this.resender = setInterval(() => this.resendStale(), 500);
  }

  /** True once authenticated and every chat joined (the replay done) on the current socket. */
  get connected(): boolean {
    return this.ready;
  }

  connect(): void {
    if (this.stopped) return;
    const socket = new WebSocket(websocketUrl(this.url()));
    this.socket = socket;
    this.ready = false;
    socket.on('open', () => socket.send(JSON.stringify({ type: 'authenticate_with_token', token: this.token })));
    socket.on('message', (data) => {
      if (socket === this.socket) this.receive(JSON.parse(data.toString()) as Frame);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (socket !== this.socket) return;
      this.socket = undefined;
      this.ready = false;
      if (this.stopped) return;
      this.reconnects += 1;
      // The client's backoff starts short; jittered so twenty people do not knock at once.
      setTimeout(() => this.connect(), 100 + Math.random() * 300);
    });
  }

  /** The last seq held for a chat: the after_seq of the next join. */
  heldSeq(chatId: string): number {
    return this.received.get(chatId)?.at(-1) ?? 0;
  }

  private receive(frame: Frame): void {
    const socket = this.socket;
    if (socket === undefined) return;
    if (frame.type === 'authSuccess') {
      this.joining = new Set(this.chats);
      for (const chatId of this.chats) socket.send(JSON.stringify({ type: 'join_chat', chat_id: chatId, after_seq: this.heldSeq(chatId) }));
      return;
    }
    if (frame.type === 'joined') {
      this.joining.delete(String(frame['chat_id']));
      if (this.joining.size > 0) return;
      this.ready = true;
      // What the last socket left unanswered goes out again, with the same client ids.
      for (const send of this.sends) if (send.via === 'ws' && send.ackedAt === undefined) this.transmit(send);
      return;
    }
    if (frame.type === 'new_message') {
      const message = frame['message'] as { chat_id: string; seq: number };
      this.received.get(message.chat_id)?.push(message.seq);
      const send = this.byClientId.get(String(frame['client_id'] ?? ''));
      if (send !== undefined && send.via === 'ws' && send.ackedAt === undefined) send.ackedAt = Date.now();
      return;
    }
    if (frame.type === 'error') {
      this.errors.push(`${String(frame['code'])}: ${String(frame['message'])} (${String(frame['ref'])})`);
      // A refused send (server_error, rate_limited) names its client id: it goes out again later.
      const send = this.byClientId.get(String(frame['ref'] ?? ''));
      if (send !== undefined) send.failures.push(0);
    }
  }

  private transmit(send: Send): void {
    send.attempts += 1;
    send.lastAttemptAt = Date.now();
    this.socket?.send(JSON.stringify({ type: 'send_message', chat_id: send.chatId, content: `${this.name} ${send.clientId}`, client_id: send.clientId }));
  }

  private resendStale(): void {
    if (!this.ready) return;
    const now = Date.now();
    for (const send of this.sends) {
      if (send.via === 'ws' && send.ackedAt === undefined && now - send.lastAttemptAt > resendAfterMs) this.transmit(send);
    }
  }

  private track(chatId: string, via: Send['via']): Send {
    const send: Send = { clientId: `fault-${randomUUID()}`, chatId, via, startedAt: Date.now(), attempts: 0, lastAttemptAt: 0, failures: [] };
    this.sends.push(send);
    this.byClientId.set(send.clientId, send);
    return send;
  }

  /** A send_message on the socket now, or once it is back (the socket's send is fire and forget). */
  sendOverSocket(chatId: string): Send {
    const send = this.track(chatId, 'ws');
    if (this.ready) this.transmit(send);
    return send;
  }

  /** A record API create, retried with the same client_id until answered 200 (or the chatter stops). */
  async sendOverHttp(chatId: string): Promise<Send> {
    const send = this.track(chatId, 'http');
    while (!this.stopped) {
      send.attempts += 1;
      send.lastAttemptAt = Date.now();
      const status = await this.postOnce(send);
      if (status === 200) {
        send.ackedAt = Date.now();
        break;
      }
      send.failures.push(status);
      await sleep(200 + Math.random() * 200);
    }
    return send;
  }

  private async postOnce(send: Send): Promise<number> {
    try {
      const response = await fetch(`${this.url()}/api/collections/messages/records`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: this.token },
        body: JSON.stringify({ chat: send.chatId, content: `${this.name} ${send.clientId}`, client_id: send.clientId }),
        signal: AbortSignal.timeout(httpTimeoutMs),
      });
      await response.arrayBuffer();
      return response.status;
    } catch {
      return 0;
    }
  }

  /** What the test prints when this person is stuck. */
  describe(): string {
    return `${this.name}: ${this.ready ? 'ready' : `not ready, joining ${[...this.joining].join(',')}, socket ${this.socket?.readyState ?? 'none'}`}, reconnects ${this.reconnects}, unacked ${this.unacknowledged().length}, errors ${this.errors.slice(-3).join(' | ')}`;
  }

  unacknowledged(): Send[] {
    return this.sends.filter((send) => send.ackedAt === undefined);
  }

  close(): void {
    this.stopped = true;
    clearInterval(this.resender);
    this.socket?.terminate();
    this.socket = undefined;
  }
}

/** Signs a new person up and in; resolves with their token and id. */
export async function signUp(url: string, username: string): Promise<{ token: string; userId: string }> {
  const password = `${username} password 1`;
  const record = await postJson(url, '/api/collections/users/records', { username, email: `${username}@example.test`, password, passwordConfirm: password });
  const { token } = (await postJson(url, '/api/collections/users/auth-with-password', { identity: username, password })) as { token: string };
  return { token, userId: String(record['id']) };
}

/** A chat created by `ownerToken` with the given other participants; resolves with its id. */
export async function newChat(url: string, ownerToken: string, name: string, participantIds: string[]): Promise<string> {
  const chat = await postJson(url, '/api/collections/chats/records', { name, description: '', participants: participantIds }, ownerToken);
  return String(chat['id']);
}

/**
 * A Chatter for each account, connecting at once: `place` says, by the account's index, its name,
 * where it reaches the server and which chats it joins.
 */
export function connectChatters(
  accounts: readonly { token: string; userId: string }[],
  place: (index: number) => { name: string; url: () => string; chats: readonly string[] },
): Chatter[] {
  return accounts.map((account, index) => {
    const { name, url, chats } = place(index);
    const chatter = new Chatter(name, account.token, account.userId, url, chats);
    chatter.connect();
    return chatter;
  });
}

/** Problems with what one person received in one chat against 1..lastSeq: gaps, duplicates, disorder. */
export function sequenceProblems(seqs: readonly number[], lastSeq: number): { missing: number; duplicates: number; outOfOrder: number } {
  const seen = new Set<number>();
  let duplicates = 0;
  let outOfOrder = 0;
  seqs.forEach((seq, index) => {
    if (seen.has(seq)) duplicates += 1;
    seen.add(seq);
    if (index > 0 && seq !== (seqs[index - 1] as number) + 1) outOfOrder += 1;
  });
  let missing = 0;
  for (let seq = 1; seq <= lastSeq; seq += 1) if (!seen.has(seq)) missing += 1;
  return { missing, duplicates, outOfOrder };
}
