import { BaseAuthStore, ClientResponseError, LocalAuthStore } from 'pocketbase';
import { describe, expect, it } from 'vitest';
import { MemoryAuthStore, ResponseError, authStorageKey } from './formerRecordApiNames';

describe('the former record-API names', () => {
  it("name the pocketbase SDK's own classes and storage key", () => {
    expect(MemoryAuthStore).toBe(BaseAuthStore);
    expect(ResponseError).toBe(ClientResponseError);
    const store = new LocalAuthStore();
    expect((store as unknown as { storageKey: string }).storageKey).toBe(authStorageKey);
  });
});
