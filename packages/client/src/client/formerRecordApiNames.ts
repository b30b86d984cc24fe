// For a while @confab/client shipped a record-API client of its own instead of the pocketbase SDK,
// and exported it under these names. They now name the SDK's own classes and types, so code
// written against them keeps building; new code uses the SDK's names.
import { BaseAuthStore, ClientResponseError, RecordService } from 'pocketbase';
import type PocketBase from 'pocketbase';
import type { OnStoreChangeFunc, RecordFullListOptions, RecordListOptions, RecordModel } from 'pocketbase';

/** @deprecated The pocketbase SDK's `BaseAuthStore` (the session in memory). */
export const MemoryAuthStore = BaseAuthStore;
/** @deprecated The pocketbase SDK's `BaseAuthStore`, which every SDK auth store extends. */
export type MemoryAuthStore = BaseAuthStore;
/** @deprecated The pocketbase SDK's `BaseAuthStore`, which every SDK auth store extends. */
export type AuthStore = BaseAuthStore;
/** @deprecated The pocketbase SDK's `ClientResponseError`. */
export const ResponseError = ClientResponseError;
/** @deprecated The pocketbase SDK's `ClientResponseError`. */
export type ResponseError = ClientResponseError;
/** @deprecated The localStorage key of the pocketbase SDK's `LocalAuthStore` (its default). */
export const authStorageKey = 'pocketbase_auth';
/** @deprecated The pocketbase SDK's client (`client.pb`), `PocketBase`. */
export type RecordApi = PocketBase;
/** @deprecated The pocketbase SDK's `RecordService` (`client.pb.collection(name)`). */
export type RecordCollection<M = RecordModel> = RecordService<M>;
/** @deprecated The pocketbase SDK's `OnStoreChangeFunc`. */
export type AuthChangeListener = OnStoreChangeFunc;
/** @deprecated The pocketbase SDK's `RecordListOptions`. */
export type ListOptions = RecordListOptions;
/** @deprecated The pocketbase SDK's `RecordFullListOptions`. */
export type FullListOptions = RecordFullListOptions;
