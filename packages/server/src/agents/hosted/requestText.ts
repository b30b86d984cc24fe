/**
 * What a person asked a hosted agent: the message without its leading mentions (`@data`, or a
 * test's `@data_fast`, and any others before the request) and without the agent's own @name
 * anywhere else. `@browse read this @alice` keeps `@alice`: it is part of the request.
 */
export function requestText(content: string, username: string): string {
  return content
    .replace(/^(\s*@[A-Za-z0-9_]+)+/, '')
    .replace(new RegExp(`(^|\\s)@${username}(?![A-Za-z0-9_])`, 'gi'), ' ')
    .trim();
}
