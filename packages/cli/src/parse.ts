/**
 * The CLI's boundary (docs/STYLE.md, Validate at every boundary): every option and argument a person types is parsed here
 * into a typed value or refused with a message that says what was expected. Commands never use a
 * raw option string.
 */
import { apiKeyPrefix } from '@confab/client/protocol';
import { isAgentUsername } from '@confab/client/rules';
import { CliError } from './output';

/** A server's base URL: http(s) only, without a trailing slash. */
export function parseServerUrl(value: string): string {
  let url: URL | null = null;
  try {
    url = new URL(value.trim());
  } catch {
    // Refused below.
  }
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new CliError(`--server must be the server's http(s) address, e.g. http://localhost:8090 (got ${JSON.stringify(value)}).`);
  }
  return url.href.replace(/\/+$/, '');
}

/** An agent's @username as typed: the leading @ is optional and case does not matter. */
export function parseAgentUsername(value: string): string {
  const username = value.trim().replace(/^@/, '').toLowerCase();
  if (!isAgentUsername(username)) {
    throw new CliError(`"${value}" is not an agent username: 3–30 lower-case letters, digits or _ (e.g. echo_bot).`);
  }
  return username;
}

/** Record ids are 15 characters of [a-z0-9]. */
export function parseChatId(value: string): string {
  const id = value.trim();
  if (!/^[a-z0-9]{15}$/.test(id)) {
    throw new CliError(`"${value}" is not a chat id: 15 lower-case letters and digits (see \`confab chats list\`).`);
  }
  return id;
}

const nameMaxLength = 100;
const descriptionMaxLength = 500;

export function parseAgentName(value: string): string {
  const name = value.trim();
  if (name === '') throw new CliError('Please enter an agent name.');
  if (name.length > nameMaxLength) throw new CliError(`The agent name is longer than ${nameMaxLength} characters.`);
  return name;
}

export function parseDescription(value: string): string {
  const description = value.trim();
  if (description.length > descriptionMaxLength) throw new CliError(`The description is longer than ${descriptionMaxLength} characters.`);
  return description;
}

/** An agent API key (`cfk_…`); the message never echoes what was given. */
export function parseApiKey(value: string, source: string): string {
  const key = value.trim();
  if (!key.startsWith(apiKeyPrefix) || !/^[A-Za-z0-9_-]+$/.test(key.slice(apiKeyPrefix.length))) {
    throw new CliError(`${source} is not an agent API key (they start with ${apiKeyPrefix}).`);
  }
  return key;
}
