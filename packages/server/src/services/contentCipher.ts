import { createCipheriv, createDecipheriv, hkdfSync } from 'node:crypto';
import { pooledRandomBytes } from '../randomPool';

const formatPrefix = 'v1:';
const nonceBytes = 12;
const tagBytes = 16;

/**
 * AES-256-GCM for data at rest (message bodies, users' provider keys). The key is derived from
 * the server secret per purpose, so one leaked derived key does not expose the other kind of data.
 * Every call uses a fresh random 12-byte nonce.
 */
export class ContentCipher {
  private readonly key: Buffer;

  constructor(secret: string, purpose: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'confab-content', purpose, 32));
  }

  /** `associatedData` (e.g. the owning record id) binds the ciphertext to its record. */
  encrypt(plaintext: string, associatedData?: string): string {
    const nonce = pooledRandomBytes(nonceBytes);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    if (associatedData !== undefined) cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return formatPrefix + Buffer.concat([nonce, ciphertext, cipher.getAuthTag()]).toString('base64');
  }

  /** Throws when the value was tampered with, encrypted under another secret or for other associated data. */
  decrypt(stored: string, associatedData?: string): string {
    if (!stored.startsWith(formatPrefix)) throw new Error('unknown ciphertext format');
    const bytes = Buffer.from(stored.slice(formatPrefix.length), 'base64');
    const nonce = bytes.subarray(0, nonceBytes);
    const tag = bytes.subarray(bytes.length - tagBytes);
    const ciphertext = bytes.subarray(nonceBytes, bytes.length - tagBytes);
    const decipher = createDecipheriv('aes-256-gcm', this.key, nonce);
    decipher.setAuthTag(tag);
    if (associatedData !== undefined) decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  }
}
