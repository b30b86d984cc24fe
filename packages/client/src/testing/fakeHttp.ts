/* Response builders and request helpers shared by the fake backend's route files. */

/** The server's collection ids, as its records carry them (stable, so clients may cache them). */
export const collectionIds = { users: '_pb_users_auth_', chats: 'pbc_3861817060', messages: 'pbc_2605467279', files: 'pbc_1307496212' } as const;

/** PocketBase's 404, which the server gives whenever a record rule is not met (view, update, delete). */
export function notFound(): Response {
  return errorResponse(404, "The requested resource wasn't found.");
}

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** PocketBase's error JSON (status, message, data of field errors). */
export function errorResponse(status: number, message: string, data: Record<string, unknown> = {}): Response {
  return json(status, { status, message, data });
}

let recordCounter = 0;
/** A 15-character record id with the given prefix, unique within the test run. */
export function nextRecordId(prefix: string): string {
  recordCounter += 1;
  return `${prefix}${String(recordCounter).padStart(15 - prefix.length, '0')}`;
}

/** PocketBase date text `minutes` after 2026-01-01 00:00. */
export function stamp(minutes: number): string {
  return new Date(Date.UTC(2026, 0, 1) + minutes * 60_000).toISOString().replace('T', ' ');
}

/** The user id in the request's (unsigned, fake) bearer token, or null. */
export function callerId(request: Request): string | null {
  const token = (request.headers.get('Authorization') ?? '').replace(/^Bearer /, '');
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    return (JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { id?: string }).id ?? null;
  } catch {
    return null;
  }
}
