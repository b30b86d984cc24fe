import type { IncomingMessage } from 'node:http';

/** The path of the WebSocket gateway (GET /api/config gives the full URL). */
export const gatewayPath = '/api/ws';

/**
 * Browsers always send Origin; CLIs, agents and tests usually do not, and are allowed. A browser
 * page may connect only from the server's own origin, the public URL, or CONFAB_ALLOWED_ORIGINS,
 * so another site cannot ride a user's token through their browser.
 */
export function originAllowed(request: IncomingMessage, allowedOrigins: readonly string[], publicUrl: string | undefined): boolean {
  const origin = request.headers.origin;
  if (origin === undefined || origin === '') return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  const host = request.headers.host;
  if (host !== undefined && parsed.host === host) return true;
  if (publicUrl !== undefined && new URL(publicUrl).origin === parsed.origin) return true;
  return allowedOrigins.includes(parsed.origin);
}

export function pathOf(request: IncomingMessage): string {
  const url = request.url ?? '/';
  const query = url.indexOf('?');
  return (query === -1 ? url : url.slice(0, query)).replace(/\/+$/, '');
}
