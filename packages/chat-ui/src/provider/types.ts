/** Options a host router understands; chat-ui only ever asks for history replacement. */
export interface NavigateOptions {
  replace?: boolean;
}

/**
 * The host router's navigate function. chat-ui never imports a router, so the host passes this in
 * (for react-router: `(to, options) => navigate(to, options)`).
 */
export type NavigateFunction = (to: string, options?: NavigateOptions) => void;
