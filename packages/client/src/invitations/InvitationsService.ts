import { constants } from '../constants';
import { ConfabError, confabErrorFromResponse, toConfabError } from '../errors';
import type { AcceptedInvitationAnswer, InvitationView, InviteResult, MyInvitationsAnswer, PendingInvitation } from '../protocol';
import type { RealtimeConnection } from '../realtime/RealtimeConnection';
import type { ConfabStore } from '../store/createConfabStore';
import { classifyInviteInput, shouldSearchInviteSuggestions } from '../validation/content';
import { messages } from '../validation/messages';
import { LatestOnly } from '../store/latestOnly';

/** GET /api/invitation/{token} (docs/CONTRACTS.md, Invitations and onboarding); the wire type of `@confab/client/protocol`. */
export type Invitation = InvitationView;

export type { InviteResult, PendingInvitation };

export interface ShareableAcceptResult {
  success: boolean;
  temp_password?: string;
  username?: string;
  chat_id: string;
}

export interface EmailAcceptInput {
  username: string;
  password: string;
  display_name?: string | undefined;
}

export interface ShareLinkOptions {
  expiresInHours?: number | undefined;
  maxUses?: number | undefined;
}

export interface CreatedShareLink {
  share_url: string;
  expires_at?: string;
  max_uses?: number;
}

export interface UserSuggestion {
  id: string;
  username: string;
  name: string;
}

export interface InvitationsServiceDependencies {
  request: <Result>(path: string, init?: { method?: string; body?: unknown; signal?: AbortSignal }) => Promise<Result>;
  fetch: typeof fetch;
  baseUrl: () => string;
  token: () => string;
  /** Holds the pending invitations (store.invitations, invitationsLoading, invitationsError). */
  store: ConfabStore;
  /** Its `invitations_changed` frames (and reconnects) reload a list that has been loaded. */
  realtime: RealtimeConnection;
  /** After accepting: the joined chat, so it can enter the chat list at once. */
  onJoined: (chatId: string) => Promise<unknown>;
}

/** The chat id in a URL or path like `/chat/{id}` (query and fragment ignored). */
export function chatIdFromLocation(location: string | null | undefined): string | null {
  if (!location) return null;
  const match = /\/chat\/([^/?#]+)/.exec(location);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

const path = (token: string) => encodeURIComponent(token);

/**
 * Invitations, share links and invites (docs/PRODUCT.md §4, §7; docs/CONTRACTS.md, Invitations and
 * onboarding). Every failure rejects with a ConfabError.
 */
export class InvitationsService {
  /** True once listPending() ran for this session: live updates only refresh a list someone shows. */
  private listed = false;
  /** Loads of store.invitations: a late answer never overwrites a newer one or another person's. */
  private readonly loads = new LatestOnly();

  constructor(private readonly dependencies: InvitationsServiceDependencies) {
    const { realtime, store } = dependencies;
    realtime.on('invitations_changed', () => this.refresh());
    // Frames sent while no socket was listening are lost: every (re)connect loads the list again,
    // which also covers an invitation that arrived between the first load and the first connect.
    realtime.on('state', ({ state }) => {
      if (state === 'connected') this.refresh();
    });
    // A new session starts without a list; the old one's must not come back.
    store.subscribe((state, previous) => {
      if (state.user?.id !== previous.user?.id) {
        this.listed = false;
        this.loads.renew();
      }
    });
  }

  private refresh(): void {
    if (this.listed) void this.listPending().catch(() => {});
  }

  /**
   * The signed-in user's pending e-mail invitations (GET /api/my-invitations), newest first, into
   * store.invitations. Afterwards `invitations_changed` frames keep the list current.
   */
  async listPending(): Promise<PendingInvitation[]> {
    const { store, request } = this.dependencies;
    this.listed = true;
    const signal = this.loads.renew();
    store.setState({ invitationsLoading: true, invitationsError: null });
    try {
      const answer = await request<MyInvitationsAnswer>('/api/my-invitations');
      const invitations = answer?.invitations ?? [];
      if (!signal.aborted) store.setState({ invitations, invitationsLoading: false });
      return invitations;
    } catch (error) {
      const failure = toConfabError(error);
      if (!signal.aborted) store.setState({ invitationsLoading: false, invitationsError: failure.message });
      throw failure;
    }
  }

  /**
   * Accepts one of the user's pending invitations: the user joins the chat, which enters the chat
   * list, and the invitation leaves store.invitations. Resolves with the chat id to open.
   */
  async acceptPending(id: string): Promise<{ chatId: string }> {
    const answer = await this.dependencies.request<AcceptedInvitationAnswer>(`/api/my-invitations/${encodeURIComponent(id)}/accept`, {
      method: 'POST',
    });
    this.forget(id);
    try {
      await this.dependencies.onJoined(answer.chat_id);
    } catch {
      // Joined all the same; the chat_added frame or the next list load brings the chat.
    }
    return { chatId: answer.chat_id };
  }

  /** Declines one of the user's pending invitations; it leaves store.invitations. */
  async declinePending(id: string): Promise<void> {
    await this.dependencies.request<void>(`/api/my-invitations/${encodeURIComponent(id)}/decline`, { method: 'POST' });
    this.forget(id);
  }

  private forget(id: string): void {
    this.dependencies.store.setState((state) => ({ invitations: state.invitations.filter((invitation) => invitation.id !== id) }));
  }

  /** The invitation behind a token; null when it is unknown, expired, revoked or used up (404). */
  async get(token: string, signal?: AbortSignal): Promise<Invitation | null> {
    try {
      return await this.dependencies.request<Invitation>(`/api/invitation/${path(token)}`, signal ? { signal } : {});
    } catch (error) {
      const failure = toConfabError(error);
      if (failure.status === 404) return null;
      throw failure;
    }
  }

  /**
   * GET /api/accept-invitation/{token} as the signed-in user. The server answers 302 to
   * /chat/{id}; with redirect 'manual' a browser only shows an opaque redirect (no Location), so
   * `knownChatId` (the invitation's chat) is used then. Resolves with the chat id.
   */
  async acceptAsCurrentUser(token: string, knownChatId?: string): Promise<{ chatId: string }> {
    const { fetch: fetchFunction, baseUrl, token: bearer } = this.dependencies;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (bearer() !== '') headers['Authorization'] = `Bearer ${bearer()}`;
    let response: Response;
    try {
      response = await fetchFunction(`${baseUrl()}/api/accept-invitation/${path(token)}`, { method: 'GET', headers, redirect: 'manual' });
    } catch (error) {
      throw toConfabError(error);
    }
    if (response.type === 'opaqueredirect') {
      if (knownChatId) return { chatId: knownChatId };
      throw new ConfabError(messages.invalidRedirectResponse, 0);
    }
    if (response.status >= 300 && response.status < 400) {
      const chatId = chatIdFromLocation(response.headers.get('Location')) ?? knownChatId ?? null;
      if (chatId) return { chatId };
      throw new ConfabError(messages.invalidRedirectResponse, response.status);
    }
    if (response.status >= 400) throw await confabErrorFromResponse(response);
    const redirectedTo = response.redirected ? chatIdFromLocation(response.url) : null;
    if (redirectedTo) return { chatId: redirectedTo };
    throw new ConfabError(messages.invalidRedirectResponse, response.status);
  }

  /** A share link without an account: creates a soft-registered user (temporary credentials). */
  acceptShareable(token: string, displayName: string): Promise<ShareableAcceptResult> {
    return this.dependencies.request<ShareableAcceptResult>(`/api/accept-invitation/${path(token)}`, {
      method: 'POST',
      body: { display_name: displayName.trim() },
    });
  }

  /** An e-mail invitation for a new person: creates the full user with the invitation's e-mail. */
  acceptEmail(token: string, input: EmailAcceptInput): Promise<{ success: boolean; username: string; chat_id: string }> {
    const body: Record<string, string> = { username: input.username.trim(), password: input.password };
    const displayName = input.display_name?.trim() ?? '';
    body['display_name'] = displayName === '' ? input.username.trim() : displayName;
    return this.dependencies.request(`/api/accept-invitation/${path(token)}`, { method: 'POST', body });
  }

  /** Invites by e-mail (contains @ and a dot; lower-cased) or username. */
  inviteToChat(chatId: string, input: string): Promise<InviteResult> {
    const target = classifyInviteInput(input);
    if (target === null) return Promise.reject(new ConfabError(messages.inviteInputRequired, 400));
    const body = target.kind === 'email' ? { chat_id: chatId, email: target.email } : { chat_id: chatId, username: target.username };
    return this.dependencies.request<InviteResult>('/api/invite-to-chat', { method: 'POST', body });
  }

  /** A new share link (24 h, 50 uses by default); the chat's previous link stops working. */
  createShareLink(chatId: string, options: ShareLinkOptions = {}): Promise<CreatedShareLink> {
    return this.dependencies.request<CreatedShareLink>(`/api/create-share-link/${encodeURIComponent(chatId)}`, {
      method: 'POST',
      body: {
        expires_in_hours: options.expiresInHours ?? constants.shareLink.expiresInHours,
        max_uses: options.maxUses ?? constants.shareLink.maxUses,
      },
    });
  }

  /** Username suggestions; [] without a request below 2 characters. */
  async searchUsers(query: string, signal?: AbortSignal): Promise<UserSuggestion[]> {
    if (!shouldSearchInviteSuggestions(query)) return [];
    const answer = await this.dependencies.request<{ users?: UserSuggestion[] }>(
      `/api/search-users/${encodeURIComponent(query.trim())}`,
      signal ? { signal } : {},
    );
    return answer?.users ?? [];
  }
}
