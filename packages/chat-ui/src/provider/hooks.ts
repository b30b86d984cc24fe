import { useContext, useRef, useSyncExternalStore } from 'react';
import type { ClientState } from '@confab/client';
import type { ConfabUiClient } from './clientInterface';
import { ConfabContext, type ConfabContextValue } from './ConfabContext';
import type { NavigateFunction } from './types';

function useConfabContext(hookName: string): ConfabContextValue {
  const value = useContext(ConfabContext);
  if (value === null) {
    throw new Error(`${hookName} must be used inside <ConfabProvider>.`);
  }
  return value;
}

/** The client given to the nearest ConfabProvider (a ConfabClient, or your ConfabUiClient). */
export function useConfabClient(): ConfabUiClient {
  return useConfabContext('useConfabClient').client;
}

/** The navigate function of the nearest ConfabProvider: the host router's, or browserNavigate. */
export function useNavigate(): NavigateFunction {
  return useConfabContext('useNavigate').navigate;
}

/** Whether screens may set document.title (the provider's `documentTitle`). */
export function useDocumentTitleEnabled(): boolean {
  return useConfabContext('useDocumentTitleEnabled').documentTitle;
}

/**
 * Subscribes to a slice of the client's store and re-renders when that slice changes.
 *
 * The selection is memoised per store state, so a selector that builds a new object
 * (`s => ({ a: s.a, b: s.b })`) does not loop: it re-runs only when the state itself changes.
 *
 * @example const user = useConfabStore((state) => state.user);
 */
export function useConfabStore<T>(selector: (state: ClientState) => T): T {
  return useStoreSelection(useConfabContext('useConfabStore').client.store, selector);
}

/** A zustand-style vanilla store, as far as a selection needs it. */
export interface SelectableStore<State> {
  getState(): State;
  subscribe(listener: () => void): () => void;
}

/**
 * A selection from any vanilla store of the client, memoised per store state: a selector that
 * builds a new object re-runs only when the state itself changes, and an equal value is kept so
 * useSyncExternalStore sees a stable snapshot.
 */
export function useStoreSelection<State, T>(store: SelectableStore<State>, selector: (state: State) => T): T {
  const cache = useRef<{ state: State; selector: (state: State) => T; value: T } | null>(null);
  const getSelection = (): T => {
    const state = store.getState();
    const cached = cache.current;
    if (cached !== null && cached.state === state && cached.selector === selector) return cached.value;
    const value = selector(state);
    const stable = cached !== null && Object.is(cached.value, value) ? cached.value : value;
    cache.current = { state, selector, value: stable };
    return stable;
  };
  return useSyncExternalStore(store.subscribe, getSelection, getSelection);
}
