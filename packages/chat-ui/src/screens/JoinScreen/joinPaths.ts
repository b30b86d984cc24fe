/** The login path that brings the visitor back to this invitation (docs/PRODUCT.md §2 /login?redirect=). */
export function joinLoginPath(token: string): string {
  return `/login?redirect=/join/${encodeURIComponent(token)}`;
}
