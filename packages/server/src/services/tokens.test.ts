import { describe, expect, it } from 'vitest';
import { peekClaims, signAuthToken, signingKey, verifyAuthToken, type AuthClaims } from './tokens';

const claims: AuthClaims = { id: 'abcdefghijklmno', collectionId: '_pb_users_auth_', type: 'auth', refreshable: true, exp: 2_000 };
const key = signingKey('server-secret', 'token-key');

describe('auth tokens', () => {
  it('round-trips claims signed with the right key before expiry', () => {
    const token = signAuthToken(claims, key);
    expect(verifyAuthToken(token, key, 1_999)).toEqual(claims);
    expect(peekClaims(token)).toEqual(claims);
  });

  it('rejects expired tokens, other keys, rotated token keys and tampering', () => {
    const token = signAuthToken(claims, key);
    expect(verifyAuthToken(token, key, 2_000)).toBeUndefined();
    expect(verifyAuthToken(token, signingKey('server-secret', 'rotated'), 1)).toBeUndefined();
    const [header, , signature] = token.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, id: 'someoneelse0000' })).toString('base64url');
    expect(verifyAuthToken(`${header}.${forgedPayload}.${signature}`, key, 1)).toBeUndefined();
    const noneHeader = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect(verifyAuthToken(`${noneHeader}.${token.split('.')[1]}.`, key, 1)).toBeUndefined();
    expect(verifyAuthToken('garbage', key, 1)).toBeUndefined();
  });
});
