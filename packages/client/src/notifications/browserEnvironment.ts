/** The little of the Notification API the notifier uses; the browser's, or a test's stand-in. */
export interface NotificationConstructor {
  new (title: string, options: { body: string; tag: string }): { onclick: ((event: Event) => void) | null; close(): void };
  readonly permission: 'granted' | 'denied' | 'default';
  requestPermission(): Promise<'granted' | 'denied' | 'default'>;
}

/** Where browser notifications come from; every part is absent outside a browser. */
export interface BrowserNotificationEnvironment {
  Notification?: NotificationConstructor | undefined;
  document?: { readonly hidden: boolean } | undefined;
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined;
  focus?: (() => void) | undefined;
}

/** The page's own globals, read when used (so a test or an init script may replace them first). */
export function browserEnvironment(): BrowserNotificationEnvironment {
  const scope = globalThis as unknown as {
    Notification?: NotificationConstructor;
    document?: { hidden: boolean };
    localStorage?: Storage;
    focus?: () => void;
  };
  return {
    get Notification() {
      return scope.Notification;
    },
    get document() {
      return scope.document;
    },
    get storage() {
      try {
        return scope.localStorage;
      } catch {
        // Storage can be blocked (private modes, sandboxed frames): then nothing is opted in.
        return undefined;
      }
    },
    focus: () => scope.focus?.(),
  };
}
