import { describe, expect, it } from 'vitest';
import { ContentCipher } from './contentCipher';

describe('ContentCipher', () => {
  const cipher = new ContentCipher('secret', 'message-content');

  it('round-trips text with a fresh nonce every time', () => {
    const first = cipher.encrypt('héllo 🎉');
    const second = cipher.encrypt('héllo 🎉');
    expect(first).not.toBe(second);
    expect(first).not.toContain('héllo');
    expect(cipher.decrypt(first)).toBe('héllo 🎉');
  });

  it('refuses tampered data and data of another purpose or secret', () => {
    const stored = cipher.encrypt('payload');
    const bytes = Buffer.from(stored.slice(3), 'base64');
    bytes[14] = (bytes[14] ?? 0) ^ 1;
    expect(() => cipher.decrypt(`v1:${bytes.toString('base64')}`)).toThrow();
    expect(() => new ContentCipher('secret', 'other').decrypt(stored)).toThrow();
    expect(() => new ContentCipher('other', 'message-content').decrypt(stored)).toThrow();
  });

  it('binds a ciphertext to its associated data (the owning record id)', () => {
    const keys = new ContentCipher('secret', 'provider-api-keys');
    const forFirst = keys.encrypt('sk-first', 'user000000000001');
    const forSecond = keys.encrypt('sk-second', 'user000000000002');
    expect(keys.decrypt(forFirst, 'user000000000001')).toBe('sk-first');
    expect(() => keys.decrypt(forFirst, 'user000000000002')).toThrow();
    expect(() => keys.decrypt(forSecond, 'user000000000001')).toThrow();
    expect(() => keys.decrypt(forFirst)).toThrow();
  });
});
