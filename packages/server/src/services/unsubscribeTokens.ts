import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The token of a mail's unsubscribe link: the person's id and an HMAC of it under the server
 * secret. It only ever turns that person's mails off, so it needs no expiry and no storage, and
 * it works from any instance of the deployment (they share the secret).
 */
function signatureOf(secret: string, userId: string): Buffer {
  return createHmac('sha256', secret).update(`unsubscribe-mails:${userId}`).digest();
}

export function unsubscribeToken(secret: string, userId: string): string {
  return `${Buffer.from(userId, 'utf8').toString('base64url')}.${signatureOf(secret, userId).toString('base64url')}`;
}

/** The person the token names, or undefined for anything not signed by this server. */
export function userOfUnsubscribeToken(secret: string, token: unknown): string | undefined {
  if (typeof token !== 'string' || token.length > 512) return undefined;
  const [encodedId, encodedSignature, extra] = token.split('.');
  if (encodedId === undefined || encodedSignature === undefined || extra !== undefined) return undefined;
  const userId = Buffer.from(encodedId, 'base64url').toString('utf8');
  const expected = signatureOf(secret, userId);
  const given = Buffer.from(encodedSignature, 'base64url');
  if (userId === '' || given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return userId;
}
