import { constants } from '../constants';
import { messages } from './messages';

/* Content rules of docs/PRODUCT.md §5: messages, drops, chats, agents, profile, invite input. */

/** A message is sent trimmed and must not be empty. */
export function validateMessage(content: string): string | null {
  return content.trim() === '' ? messages.messageEmpty : null;
}

export interface DropInput {
  title: string;
  content: string;
}

/** Lengths are counted after trimming, since the trimmed values are what is submitted. */
export function validateDrop(values: DropInput): string | null {
  const title = values.title.trim();
  const content = values.content.trim();
  if (title === '') return messages.dropTitleRequired;
  if (content === '') return messages.dropContentRequired;
  if (title.length > constants.drop.titleMaxLength) return messages.dropTitleTooLong;
  if (content.length > constants.drop.contentMaxLength) return messages.dropContentTooLong;
  return null;
}

export function normalizeDrop(values: DropInput): DropInput {
  return { title: values.title.trim(), content: values.content.trim() };
}

export function validateChatCreation(values: { name: string; userId: string | null | undefined }): string | null {
  if (values.name.trim() === '') return messages.chatNameRequired;
  if (values.userId === undefined || values.userId === null || values.userId.trim() === '') {
    return messages.userIdRequiredForChat;
  }
  return null;
}

export interface AgentInput {
  name: string;
  description: string;
}

export function validateAgentCreation(values: AgentInput): string | null {
  return values.name.trim() === '' ? messages.agentNameRequired : null;
}

export function normalizeAgentInput(values: AgentInput): AgentInput {
  return { name: values.name.trim(), description: values.description.trim() };
}

/** Hosted (Confab) agent creation: a display name is required. */
export function validateHostedAgentCreation(values: { displayName: string }): string | null {
  return values.displayName.trim() === '' ? messages.agentDisplayNameRequired : null;
}

/** My Profile username form: saving an unchanged username is refused. */
export function validateProfileUsername(values: { currentUsername: string; username: string }): string | null {
  const username = values.username.trim();
  if (username === '') return messages.usernameRequired;
  if (username === values.currentUsername) return messages.noChangesToSave;
  return null;
}

/** My Profile API keys form: at least one of the OpenAI and Gemini keys. */
export function validateApiKeys(values: { openaiApiKey: string; geminiApiKey: string }): string | null {
  if (values.openaiApiKey.trim() === '' && values.geminiApiKey.trim() === '') return messages.apiKeyRequired;
  return null;
}

export type InviteTarget = { kind: 'email'; email: string } | { kind: 'username'; username: string };

/**
 * Invite User input: an e-mail when it contains @ and a dot (lower-cased), otherwise a
 * username; null when blank.
 */
export function classifyInviteInput(input: string): InviteTarget | null {
  const value = input.trim();
  if (value === '') return null;
  if (value.includes('@') && value.includes('.')) return { kind: 'email', email: value.toLowerCase() };
  return { kind: 'username', username: value };
}

export function validateInviteInput(input: string): string | null {
  return classifyInviteInput(input) === null ? messages.inviteInputRequired : null;
}

/** Username suggestions start from 2 characters. */
export function shouldSearchInviteSuggestions(query: string): boolean {
  return query.trim().length >= constants.inviteSearchMinLength;
}

/** Agent search runs once the trimmed query has at least 1 character. */
export function shouldSearchAgents(query: string): boolean {
  return query.trim().length >= constants.agentSearch.minQueryLength;
}
