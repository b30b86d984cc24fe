/**
 * Remote images in messages and drops load through the server's image proxy (docs/SECURITY.md C9),
 * so reading a message never tells a third party the reader's address. Relative images (the
 * server's own files) and anything not http(s) are left as they are.
 */

/** The server route that fetches a remote image for a signed-in reader (`?url=…`, and `&token=` for `<img>`). */
export const imageProxyPath = '/api/image-proxy';

/**
 * The proxy URL of a remote image (`https://…`, `http://…` or `//…`), relative to the server;
 * any other `src` comes back unchanged.
 *
 * @example
 * proxiedImageSrc('https://cats.example/a.png'); // → '/api/image-proxy?url=https%3A%2F%2Fcats.example%2Fa.png'
 * proxiedImageSrc('/api/files/files/f1/a.png');  // → unchanged
 */
export function proxiedImageSrc(src: string): string {
  const trimmed = src.trim();
  const remote = /^https?:\/\//i.test(trimmed) ? trimmed : /^\/\/[^/]/.test(trimmed) ? `https:${trimmed}` : undefined;
  return remote === undefined ? src : `${imageProxyPath}?url=${encodeURIComponent(remote)}`;
}

/**
 * Rendered HTML whose proxy image URLs point at `baseUrl` and carry a file token (an `<img>`
 * cannot send the Authorization header). For hosts that serve the API from another origin or
 * hand the token to images; the renderer's own output stays token-free so it can be cached.
 */
export function withImageProxyAccess(html: string, options: { baseUrl?: string | undefined; token?: string | null | undefined }): string {
  if (!html.includes(`${imageProxyPath}?url=`)) return html;
  const base = (options.baseUrl ?? '').replace(/\/+$/, '');
  const token = options.token === undefined || options.token === null || options.token === '' ? '' : `token=${encodeURIComponent(options.token)}&amp;`;
  return html.split(`"${imageProxyPath}?url=`).join(`"${base}${imageProxyPath}?${token}url=`);
}
