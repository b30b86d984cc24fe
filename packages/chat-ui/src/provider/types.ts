/** Options a host router understands: history replacement, and state carried to the next screen. */
export interface NavigateOptions {
  replace?: boolean | undefined;
  /**
   * Navigation state for the target route (react-router's `location.state`), e.g.
   * `{ preselectedAgent }` for /chat/new (docs/PRODUCT.md §2) or `{ firstMessage }` for a new chat.
   */
  state?: unknown;
}

/**
 * How chat-ui moves to another path. chat-ui never imports a router: the host passes its router's
 * navigate to ConfabProvider (for react-router: `(to, options) => navigate(to, options)`), or
 * leaves it out for `browserNavigate` (the History API and a popstate event).
 */
export type NavigateFunction = (to: string, options?: NavigateOptions) => void;
