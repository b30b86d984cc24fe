import { randomFillSync } from 'node:crypto';

// Random bytes are drawn from the CSPRNG 4 KiB at a time and each handed out once: a call to it
// per record id or per nonce cost more than the rest of making one (every message takes both).
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

/** One random byte, never handed out twice. */
export function randomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
}

/** `size` fresh random bytes (a copy: the caller may keep it), never handed out twice. */
export function pooledRandomBytes(size: number): Buffer {
  if (size > pool.length) return randomFillSync(Buffer.allocUnsafe(size));
  if (poolOffset + size > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + size));
  poolOffset += size;
  return bytes;
}
