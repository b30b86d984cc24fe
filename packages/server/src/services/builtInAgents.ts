/**
 * The hosted agents every Confab server has (docs/CONTRACTS.md, Hosted agents), created on first
 * start and never deletable. Their usernames are reserved (userValidation.ts), so nobody else can
 * take them.
 */
export const builtInAgents = [
  { username: 'email', name: 'Email', description: 'Sends and manages e-mails' },
  { username: 'deep', name: 'Deep Research', description: 'Deep research' },
  { username: 'browse', name: 'Browse', description: 'Browses and scrapes websites' },
  { username: 'data', name: 'Data', description: "SQL data analysis over this chat's files" },
  { username: 'drops', name: 'Drops', description: 'Creates a drop from the discussion' },
] as const;

export type BuiltInAgentUsername = (typeof builtInAgents)[number]['username'];

export function isBuiltInAgentUsername(username: string): username is BuiltInAgentUsername {
  return builtInAgents.some((agent) => agent.username === username);
}
