import { createContext } from 'react';
import type { ConfabUiClient } from './clientInterface';
import type { NavigateFunction } from './types';

export interface ConfabContextValue {
  client: ConfabUiClient;
  navigate: NavigateFunction;
  /** Whether screens may set document.title (ConfabProvider's `documentTitle`). */
  documentTitle: boolean;
}

/** `null` outside a ConfabProvider so the hooks can throw a helpful error instead of misbehaving. */
export const ConfabContext = createContext<ConfabContextValue | null>(null);
