import { hash, verify } from '@node-rs/argon2';

/**
 * Argon2id (the library's default algorithm) with its default memory/time costs.
 * A hash of a random string stands in for unknown accounts, so a login for a missing user costs
 * as much time as one for an existing user and does not reveal which usernames exist.
 */
let decoyHash: Promise<string> | undefined;

export async function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

export async function spendDecoyVerification(password: string): Promise<void> {
  decoyHash ??= hash(`decoy-${Math.random()}`);
  await verifyPassword(await decoyHash, password);
}
