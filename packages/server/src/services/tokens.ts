import { createHmac, timingSafeEqual } from 'node:crypto';

/** Claims of an auth token, as PocketBase issues them. */
export interface AuthClaims {
  id: string;
  collectionId: string;
  type: 'auth';
  refreshable: boolean;
  exp: number;
}

/** Claims of a file token (PocketBase: `POST /api/files/token`), good only for file downloads. */
export interface FileClaims {
  id: string;
  collectionId: string;
  type: 'file';
  exp: number;
}

export const authTokenLifetimeSeconds = 5 * 24 * 60 * 60;
export const fileTokenLifetimeSeconds = 180;

const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

function signature(input: string, key: string): Buffer {
  return createHmac('sha256', key).update(input).digest();
}

/** The signing key mixes the user's token_key in, so rotating it kills every earlier token. */
export function signingKey(secret: string, tokenKey: string): string {
  return `${tokenKey}.${secret}`;
}

export function signAuthToken(claims: AuthClaims | FileClaims, key: string): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const input = `${header}.${payload}`;
  return `${input}.${signature(input, key).toString('base64url')}`;
}

/** Reads the claims without trusting them: only to find whose key verifies the token. */
export function peekClaims(token: string): Partial<AuthClaims | FileClaims> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const decoded: unknown = JSON.parse(Buffer.from(parts[1] ?? '', 'base64url').toString('utf8'));
    return typeof decoded === 'object' && decoded !== null ? (decoded as Partial<AuthClaims | FileClaims>) : undefined;
  } catch {
    return undefined;
  }
}

/** Verifies the signature (constant time), the algorithm, the type and the expiry. */
export function verifyAuthToken(token: string, key: string, nowSeconds: number): AuthClaims | undefined {
  return verifyToken(token, key, nowSeconds, 'auth') as AuthClaims | undefined;
}

/** A file token is never an auth token, and the other way round. */
export function verifyFileToken(token: string, key: string, nowSeconds: number): FileClaims | undefined {
  return verifyToken(token, key, nowSeconds, 'file') as FileClaims | undefined;
}

function verifyToken(token: string, key: string, nowSeconds: number, type: 'auth' | 'file'): AuthClaims | FileClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== header) return undefined;
  const expected = signature(`${parts[0]}.${parts[1]}`, key);
  const given = Buffer.from(parts[2] ?? '', 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const claims = peekClaims(token);
  if (claims === undefined || claims.type !== type || typeof claims.id !== 'string') return undefined;
  if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds) return undefined;
  return claims as AuthClaims | FileClaims;
}
