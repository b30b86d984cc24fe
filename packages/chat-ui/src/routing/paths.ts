/**
 * Routing policy of docs/PRODUCT.md §2, as plain functions so any host router can apply it. chat-ui
 * still never imports a router: the host decides how to redirect.
 */

/** Exact public paths; anything under /join/ is public too. */
const publicPaths = new Set(['/', '/login', '/register', '/forgot-password', '/reset-password']);

/**
 * True for the paths an unauthenticated visitor may stay on: login, register, forgot-password,
 * reset-password, the root and anything under /join/ (docs/PRODUCT.md §2). A trailing slash is
 * ignored.
 */
export function isPublicPath(pathname: string): boolean {
  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname;
  return publicPaths.has(normalized) || normalized.startsWith('/join/');
}

/**
 * Returns `value` when it is a same-origin path (for `/login?redirect=`), else null, so a crafted
 * link cannot send a freshly signed-in user to another site. Protocol-relative (`//evil.com`),
 * backslash (`/\evil.com`) and absolute URLs are rejected; the URL parser also strips the tabs
 * and newlines browsers ignore, so `/\t/evil.com` is caught by the origin check.
 *
 * @example safeRedirectPath('/join/abc?x=1', 'https://confab.app') // '/join/abc?x=1'
 */
export function safeRedirectPath(value: string | null | undefined, origin: string): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  try {
    const url = new URL(value, origin);
    if (url.origin !== new URL(origin).origin) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}
