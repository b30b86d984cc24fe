/** Options a host router understands: history replacement, and state carried to the next screen. */
export interface NavigateOptions {
  replace?: boolean;
  /**
   * Navigation state for the target route (react-router's `location.state`), e.g.
   * `{ preselectedAgent }` for /chat/new (spec §2) or `{ firstMessage }` for a new chat.
   */
  state?: unknown;
}

/**
 * The host router's navigate function. chat-ui never imports a router, so the host passes this in
 * (for react-router: `(to, options) => navigate(to, options)`).
 */
export type NavigateFunction = (to: string, options?: NavigateOptions) => void;
