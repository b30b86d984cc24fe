import { createHash, randomBytes } from 'node:crypto';
import type {
  AcceptedInvitationAnswer,
  InvitationView,
  InviteInvitedResult,
  InviteResult,
  MyInvitationsAnswer,
  PendingInvitation,
} from '@confab/client/protocol';
import { ConfabServerError, fieldErrors, validationError, type FieldErrors } from '../errors';
import { chatInvitationMail } from '../mail/templates';
import type { OutgoingMail } from '../mail/transport';
import { isUniqueViolation } from '../store/database';
import { formatTimestamp, newRecordId, randomAlphanumeric } from '../store/ids';
import type { ChatRow } from '../store/repositories/chats';
import type { InvitationRow, ShareLinkRow } from '../store/repositories/invitations';
import type { UserRow } from '../store/repositories/users';
import type { AccountsService } from './accounts';
import { linePerson, type Announcements } from './announcements';
import type { ChatEvents } from './chatEvents';
import { inviteRefusal, mayInvite } from './chatMembership';
import type { RequestAuth, ServiceContext } from './context';
import { readString, type Body } from './input';
import { tooManyRequests } from './limits/rateLimits';
import { newUserRow } from './newUserRow';
import { stripUnsafeCharacters } from '@confab/client/rules';
import {
  cleanDisplayName,
  displayNameMaximum,
  isValidEmail,
  passwordMaximum,
  resetPasswordMinimum,
  temporaryUsernamePrefix,
  validateUsername,
} from './userValidation';

/** CONTRACTS "Invitations and onboarding": temporary accounts. */
export const temporaryEmailDomain = 'temporary.confab.invalid';
/** docs/PRODUCT.md §5: invitation signup needs 6 characters, complete-account 8. */
export const invitationSignupPasswordMinimum = resetPasswordMinimum;
const invitationLifetimeMs = 7 * 24 * 60 * 60 * 1000;
const shareLinkDefaults = { expiresInHours: 24, maxUses: 50 };
const shareLinkLimits = { maxHours: 24 * 365, maxUses: 10_000 };
/** 32 random bytes (256 bits), base64url: 43 characters. */
const tokenPattern = /^[A-Za-z0-9_-]{32,128}$/;

export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function newToken(): string {
  return randomBytes(32).toString('base64url');
}

const invalidInvitation = (): ConfabServerError => new ConfabServerError('notFound', 'Invalid or expired invitation');
const invitationNotFound = (): ConfabServerError => new ConfabServerError('notFound', 'Invitation not found');
/** Record ids: 15 characters of [a-z0-9]. */
const recordIdPattern = /^[a-z0-9]{15}$/;

type Redeemable = { kind: 'shareable'; link: ShareLinkRow } | { kind: 'email'; invitation: InvitationRow };

export type { InvitationView };

/** Invitations by e-mail or username, share links, joins, search and complete-account (docs/CONTRACTS.md, Invitations and onboarding). */
export class InvitationsService {
  constructor(
    private readonly context: ServiceContext,
    private readonly accounts: AccountsService,
    private readonly chatEvents: ChatEvents,
    private readonly announcements: Announcements,
  ) {}

  private now(): string {
    return formatTimestamp(this.context.config.now());
  }

  private from(): string {
    return `Confab <no-reply@${this.context.config.mailDomain}>`;
  }

  /**
   * Queues the invitation (mail/queue.ts): a relay that is down delays the mail, the answer stays
   * `invited`. A newer invitation to the same address and chat replaces the pending one, and so
   * its mail replaces the older one's if that has not gone yet (the older link no longer works).
   */
  private async sendMail(mail: OutgoingMail, chatId: string): Promise<void> {
    try {
      await this.context.mailQueue.enqueue(mail, { kind: 'invitation', group: `invitation:${chatId}:${hashInvitationToken(mail.to)}` });
    } catch (error) {
      this.context.logger.error({ error: String(error) }, 'invitation mail could not be queued');
    }
  }

  /**
   * The chat, for one of its participants. Anyone else gets the same 404 as for a chat that does
   * not exist, so these endpoints never tell whether a chat id is real (as the record API does).
   */
  private async participantChatOr404(chatId: string | undefined, user: UserRow): Promise<ChatRow> {
    const chat = chatId === undefined || chatId === '' ? undefined : await this.context.store.chats.findById(chatId);
    if (chat === undefined || !(await this.context.store.chats.isParticipant(chat.id, user.id))) {
      throw new ConfabServerError('notFound', 'Chat not found');
    }
    return chat;
  }

  /**
   * Adds the user to the chat and tells realtime clients: chat_added to the joiner, chat_updated to
   * the rest, and a system line in the chat saying how they came (`via`: the admin who added them,
   * or the link or invitation they followed).
   */
  private async join(user: UserRow, chatId: string, via: { addedBy: UserRow } | 'joined_via_link' | 'joined_via_invitation'): Promise<boolean> {
    const members = (await this.context.store.chats.membersOf([chatId])).get(chatId);
    const before = members?.participants ?? [];
    const added = await this.context.store.chats.addParticipant(chatId, user.id, this.now());
    if (!added) return false;
    await this.chatEvents.changed(chatId, before, [...before.filter((id) => id !== user.id), user.id]);
    if (typeof via === 'string') await this.announcements.systemLine(chatId, user, { kind: via });
    else await this.announcements.systemLine(chatId, via.addedBy, { kind: 'added', subject: linePerson(user) });
    return true;
  }

  // ---- invite-to-chat ----

  /**
   * Counts one invitation against the inviter's and the chat's hourly allowances. The inviter's
   * is counted first and the chat's only when it passed: a refusal by the chat's allowance still
   * counts against the inviter (hammering a busy chat spends one's own hour), while a refusal by
   * the inviter's allowance never spends the chat's (one admin cannot use up the others').
   */
  private async countInvitation(inviterId: string, chatId: string): Promise<void> {
    const limits = this.context.rateLimits;
    const refused = () => tooManyRequests('Too many invitations. Please try again later.');
    if (!(await limits.allow(`invitations:user:${inviterId}`, limits.limits.invitationsPerUser))) throw refused();
    if (!(await limits.allow(`invitations:chat:${chatId}`, limits.limits.invitationsPerChat))) throw refused();
  }

  /**
   * Admins only (docs/PRODUCT.md §6). A username is added at once (the inviter sees usernames
   * through search-users anyway). An e-mail always answers the same `invited`, whether the address
   * has an account, has none, or is already in the chat, so the answer tells nobody who has an
   * account: every invited address gets the same mail with a /join link (none when already in the
   * chat), and an account with that address also finds the invitation in the app, to accept or
   * decline.
   */
  async inviteToChat(auth: RequestAuth, body: Body): Promise<InviteResult> {
    const inviter = this.accounts.requireUser(auth);
    const chatId = readString(body, 'chat_id')?.trim();
    const email = readString(body, 'email')?.trim().toLowerCase() ?? '';
    const username = readString(body, 'username')?.trim() ?? '';
    const errors: FieldErrors = {};
    if (chatId === undefined || chatId === '') errors['chat_id'] = fieldErrors.required();
    if (email === '' && username === '') {
      errors['email'] = fieldErrors.required();
    } else if (email !== '' && !isValidEmail(email)) {
      errors['email'] = fieldErrors.email();
    }
    if (Object.keys(errors).length > 0) throw validationError('Failed to invite user', errors);
    const chat = await this.participantChatOr404(chatId, inviter);
    const members = (await this.context.store.chats.membersOf([chat.id])).get(chat.id) ?? { participants: [], admins: [] };
    if (!mayInvite(members, inviter.id)) throw new ConfabServerError('forbidden', inviteRefusal);
    await this.countInvitation(inviter.id, chat.id);
    if (email === '') {
      const user = await this.context.store.users.findByUsername(username);
      if (user === undefined) throw new ConfabServerError('notFound', 'User not found');
      await this.join(user, chat.id, { addedBy: inviter });
      return { success: true, status: 'added', chat_id: chat.id, user: { id: user.id, username: user.username, name: user.name } };
    }
    const answer: InviteInvitedResult = { success: true, status: 'invited', chat_id: chat.id };
    const existing = await this.context.store.users.findByEmail(email);
    if (existing !== undefined && members.participants.includes(existing.id)) return answer;
    const token = newToken();
    const now = this.context.config.now();
    await this.context.store.invitations.replacePendingInvitation({
      id: newRecordId(),
      chat: chat.id,
      invited_by: inviter.id,
      email,
      username: '',
      link_type: 'email',
      token_hash: hashInvitationToken(token),
      expires: formatTimestamp(new Date(now.getTime() + invitationLifetimeMs)),
      accepted_by: null,
      accepted_at: null,
      created: formatTimestamp(now),
      updated: formatTimestamp(now),
      invitee: existing?.id ?? null,
    });
    const link = `${this.context.publicUrl()}/join/${token}`;
    const inviterName = inviter.name.trim() === '' ? inviter.username : inviter.name;
    await this.sendMail(chatInvitationMail({ to: email, from: this.from(), inviterName, chatName: chat.name, link }), chat.id);
    if (existing !== undefined) await this.chatEvents.invitationsChanged(existing.id, chat.id);
    return answer;
  }

  // ---- the signed-in user's own invitations ----

  /** GET /api/my-invitations: the caller's pending e-mail invitations, newest first. */
  async myInvitations(auth: RequestAuth): Promise<MyInvitationsAnswer> {
    const user = this.accounts.requireUser(auth);
    const rows = await this.context.store.invitations.pendingForInvitee(user.id, user.email.toLowerCase(), this.now());
    const invitations = rows.map(
      (row): PendingInvitation => ({
        id: row.id,
        chat: { id: row.chat_id, name: row.chat_name },
        invited_by: row.inviter_username === null ? null : { username: row.inviter_username, name: row.inviter_name ?? '' },
        created: row.created,
        expires_at: row.expires,
      }),
    );
    return { invitations };
  }

  /** One of the caller's own pending invitations; anyone else's, or a spent one, is a 404. */
  private async myPendingInvitation(user: UserRow, id: string): Promise<InvitationRow> {
    const invitation = recordIdPattern.test(id) ? await this.context.store.invitations.findInvitationById(id) : undefined;
    const mine =
      invitation !== undefined &&
      invitation.link_type === 'email' &&
      invitation.invitee === user.id &&
      invitation.email === user.email.toLowerCase() &&
      invitation.accepted_at === null &&
      invitation.expires > this.now();
    if (!mine) throw invitationNotFound();
    return invitation;
  }

  /** POST /api/my-invitations/{id}/accept: the caller joins the chat; the invitation (and its link) is spent. */
  async acceptMine(auth: RequestAuth, id: string): Promise<AcceptedInvitationAnswer> {
    const user = this.accounts.requireUser(auth);
    const invitation = await this.myPendingInvitation(user, id);
    if (!(await this.context.store.invitations.consumeInvitation(invitation.id, user.id, this.now()))) throw invitationNotFound();
    await this.join(user, invitation.chat, 'joined_via_invitation');
    await this.chatEvents.invitationsChanged(user.id, invitation.chat);
    return { chat_id: invitation.chat };
  }

  /** POST /api/my-invitations/{id}/decline: the invitation and its mailed link are gone. */
  async declineMine(auth: RequestAuth, id: string): Promise<void> {
    const user = this.accounts.requireUser(auth);
    const invitation = await this.myPendingInvitation(user, id);
    if (!(await this.context.store.invitations.deletePendingInvitation(invitation.id))) throw invitationNotFound();
    await this.chatEvents.invitationsChanged(user.id, invitation.chat);
  }

  // ---- share links ----

  async createShareLink(auth: RequestAuth, chatId: string, body: Body) {
    const user = this.accounts.requireUser(auth);
    const chat = await this.participantChatOr404(chatId, user);
    if (!(await this.context.store.chats.isAdmin(chat.id, user.id))) {
      throw new ConfabServerError('forbidden', 'Only chat admins can create share links.');
    }
    const errors: FieldErrors = {};
    const hours = readPositiveNumber(body, 'expires_in_hours', shareLinkDefaults.expiresInHours, shareLinkLimits.maxHours, errors, false);
    const maxUses = readPositiveNumber(body, 'max_uses', shareLinkDefaults.maxUses, shareLinkLimits.maxUses, errors, true);
    if (Object.keys(errors).length > 0) throw validationError('Failed to create share link', errors);
    const token = newToken();
    const now = this.context.config.now();
    const expiresAt = formatTimestamp(new Date(now.getTime() + hours * 60 * 60 * 1000));
    await this.context.store.invitations.replaceShareLink({
      id: newRecordId(),
      chat: chat.id,
      created_by: user.id,
      token_hash: hashInvitationToken(token),
      expires: expiresAt,
      max_uses: maxUses,
      use_count: 0,
      revoked_at: null,
      created: formatTimestamp(now),
      updated: formatTimestamp(now),
    });
    return { share_url: `${this.context.publicUrl()}/join/${token}`, expires_at: expiresAt, max_uses: maxUses };
  }

  // ---- lookup and accept ----

  /** A currently usable invitation or share link, or undefined (unknown, expired, revoked, used up). */
  private async findUsable(token: string): Promise<Redeemable | undefined> {
    if (!tokenPattern.test(token)) return undefined;
    const hash = hashInvitationToken(token);
    const now = this.now();
    const link = await this.context.store.invitations.findShareLinkByHash(hash);
    if (link !== undefined) {
      const usable = link.revoked_at === null && link.expires > now && link.use_count < link.max_uses;
      return usable ? { kind: 'shareable', link } : undefined;
    }
    const invitation = await this.context.store.invitations.findInvitationByHash(hash);
    if (invitation !== undefined && invitation.accepted_at === null && invitation.expires > now) return { kind: 'email', invitation };
    return undefined;
  }

  async viewInvitation(token: string): Promise<InvitationView> {
    const found = await this.findUsable(token);
    if (found === undefined) throw invalidInvitation();
    const row = found.kind === 'shareable' ? found.link : found.invitation;
    const chat = await this.context.store.chats.findById(row.chat);
    if (chat === undefined) throw invalidInvitation();
    const email = found.kind === 'email' ? found.invitation.email : '';
    return {
      id: row.id,
      chat_id: chat.id,
      chat: { id: chat.id, name: chat.name },
      email,
      link_type: found.kind,
      user_exists: email !== '' && (await this.context.store.users.findByEmail(email)) !== undefined,
      expires_at: row.expires,
    };
  }

  /** Spends one use (share link) or the invitation (e-mail); false when another request got there first. */
  private async spend(found: Redeemable, userId: string): Promise<boolean> {
    const now = this.now();
    if (found.kind === 'shareable') return this.context.store.invitations.redeemShareLink(found.link.id, found.link.chat, now);
    return this.context.store.invitations.consumeInvitation(found.invitation.id, userId, now);
  }

  private chatOf(found: Redeemable): string {
    return found.kind === 'shareable' ? found.link.chat : found.invitation.chat;
  }

  /** GET accept: the signed-in user joins; answers the chat id for the redirect. */
  async acceptAsUser(auth: RequestAuth, token: string, expectedChatId?: string): Promise<string> {
    const user = this.accounts.requireUser(auth);
    const found = await this.findUsable(token);
    if (found === undefined) throw invalidInvitation();
    const chatId = this.chatOf(found);
    if (expectedChatId !== undefined && expectedChatId !== '' && expectedChatId !== chatId) throw invalidInvitation();
    // A member following the link again spends nothing.
    if (await this.context.store.chats.isParticipant(chatId, user.id)) return chatId;
    if (!(await this.spend(found, user.id))) throw invalidInvitation();
    // Two tabs racing: the one that did not add the user gives its share-link use back.
    if (!(await this.join(user, chatId, found.kind === 'shareable' ? 'joined_via_link' : 'joined_via_invitation')) && found.kind === 'shareable') {
      await this.context.store.invitations.releaseShareLinkUse(found.link.id);
    }
    // Accepted from the mailed link: the app's list of pending invitations drops it.
    if (found.kind === 'email') await this.chatEvents.invitationsChanged(user.id, chatId);
    return chatId;
  }

  /** POST accept: a new account joins (soft-registered for share links, full for e-mail invitations). */
  async acceptAsNewUser(token: string, body: Body, ip: string) {
    const found = await this.findUsable(token);
    if (found === undefined) throw invalidInvitation();
    const chatId = this.chatOf(found);
    const expectedChatId = readString(body, 'chat_id');
    if (expectedChatId !== undefined && expectedChatId !== '' && expectedChatId !== chatId) throw invalidInvitation();
    return found.kind === 'shareable' ? this.joinWithName(found, chatId, body, ip) : this.joinWithSignup(found, chatId, body);
  }

  private async joinWithName(found: Redeemable & { kind: 'shareable' }, chatId: string, body: Body, ip: string) {
    const given = stripUnsafeCharacters(readString(body, 'display_name') ?? '').trim();
    if (given === '') throw validationError('Please enter your name', { display_name: fieldErrors.required() });
    if (given.length > displayNameMaximum) throw validationError('Failed to accept invitation', { display_name: fieldErrors.maxText(displayNameMaximum) });
    const name = cleanDisplayName(given);
    // Anyone holding a link can make accounts: each address gets a bounded number per hour.
    const limits = this.context.rateLimits;
    if (!(await limits.allow(`temporary-accounts:ip:${ip}`, limits.limits.temporaryAccountsPerIp))) throw tooManyRequests();
    // The use is spent first, so a full link never creates an account.
    if (!(await this.spend(found, ''))) throw invalidInvitation();
    const username = `${temporaryUsernamePrefix}${randomAlphanumeric(10)}`;
    const tempPassword = randomBytes(18).toString('base64url');
    let user: UserRow;
    try {
      user = await this.insertUser({
        username,
        email: `${username}@${temporaryEmailDomain}`,
        name,
        password: tempPassword,
        softRegistered: true,
      });
    } catch (error) {
      await this.context.store.invitations.releaseShareLinkUse(found.link.id);
      throw error;
    }
    await this.join(user, chatId, 'joined_via_link');
    return { success: true, temp_password: tempPassword, username, chat_id: chatId };
  }

  private async joinWithSignup(found: Redeemable & { kind: 'email' }, chatId: string, body: Body) {
    const username = readString(body, 'username')?.trim();
    const password = readString(body, 'password');
    const passwordConfirm = readString(body, 'passwordConfirm');
    const errors: FieldErrors = {};
    await validateUsername(errors, this.context.store.users, username);
    if (password === undefined || password === '') {
      errors['password'] = fieldErrors.required();
    } else if (password.length < invitationSignupPasswordMinimum || password.length > passwordMaximum) {
      errors['password'] = fieldErrors.length(invitationSignupPasswordMinimum, passwordMaximum);
    }
    if (passwordConfirm !== undefined && password !== undefined && passwordConfirm !== password) errors['passwordConfirm'] = fieldErrors.mismatch();
    const email = found.invitation.email;
    if (await this.context.store.users.emailTaken(email)) errors['email'] = fieldErrors.identityTaken('email');
    if (Object.keys(errors).length > 0) throw validationError('Failed to accept invitation', errors);
    const name = cleanDisplayName(readString(body, 'display_name') ?? '') || (username ?? '');
    const user = await this.insertUser({ username: username ?? '', email, name, password: password ?? '', softRegistered: false });
    if (!(await this.spend(found, user.id))) {
      // Another request used the invitation meanwhile: the account must not outlive the failure.
      await this.context.store.users.delete(user.id);
      throw invalidInvitation();
    }
    await this.join(user, chatId, 'joined_via_invitation');
    return { success: true, username: user.username, chat_id: chatId };
  }

  private async insertUser(input: { username: string; email: string; name: string; password: string; softRegistered: boolean }): Promise<UserRow> {
    const now = this.now();
    const row = await newUserRow({
      username: input.username,
      name: input.name,
      email: input.email,
      password: input.password,
      softRegistered: input.softRegistered,
      signupCompleted: !input.softRegistered,
      now,
    });
    try {
      await this.context.store.users.insert(row);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw validationError('Failed to accept invitation', {
          username: fieldErrors.identityTaken('username'),
          email: fieldErrors.identityTaken('email'),
        });
      }
      throw error;
    }
    return row;
  }
}

/** A number in [1, maximum] (integer when asked), defaulting when absent; records a field error otherwise. */
function readPositiveNumber(body: Body, key: string, fallback: number, maximum: number, errors: FieldErrors, integer: boolean): number {
  const raw = body[key];
  if (raw === undefined || raw === null || raw === '') return fallback;
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw) : Number.NaN;
  if (!Number.isFinite(value) || value <= 0 || value > maximum || (integer && !Number.isInteger(value))) {
    errors[key] = fieldErrors.invalidValue();
    return fallback;
  }
  return value;
}
