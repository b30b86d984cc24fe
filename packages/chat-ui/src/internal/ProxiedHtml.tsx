import { forwardRef, useContext, useEffect, useState, type HTMLAttributes } from 'react';
import { imageProxyPath, proxiedImageSrc, withImageProxyAccess } from '@confab/client';
import { FILE_TOKEN_POLL_MS } from '../components/ChatFilesPanel/useFileToken';
import { ConfabContext } from '../provider/ConfabContext';
import { useConfabClient, useConfabStore } from '../provider/hooks';

export interface ProxiedHtmlProps extends Omit<HTMLAttributes<HTMLDivElement>, 'dangerouslySetInnerHTML' | 'children'> {
  /** ALREADY SANITISED html from renderMessageContent, never anything else. */
  html: string;
}

/**
 * A file token for proxied images, asked again when the signed-in person changes and every
 * FILE_TOKEN_POLL_MS (the client caches it, so a request goes out only when one is due).
 */
function useImageToken(): string | null {
  const client = useConfabClient();
  const userId = useConfabStore((state) => state.user?.id ?? null);
  const [token, setToken] = useState<string | null>(null);
  useEffect(() => {
    if (userId === null) {
      setToken(null);
      return undefined;
    }
    let live = true;
    // A failure keeps the last token; the next poll tries again.
    const refresh = () => void client.files.fileToken().then((value) => live && setToken(value), () => undefined);
    refresh();
    const timer = setInterval(refresh, FILE_TOKEN_POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [client, userId]);
  return token;
}

/**
 * Sanitised message HTML in a div. Remote images were rewritten by the renderer to the server's
 * image proxy (docs/SECURITY.md C9); an `<img>` cannot send the Authorization header, so their URLs
 * get the API's origin and a file token here. Bodies without remote images need no token.
 */
export const ProxiedHtml = forwardRef<HTMLDivElement, ProxiedHtmlProps>(function ProxiedHtml({ html, ...rest }, ref) {
  // Outside a ConfabProvider (a lone Message in a story) there is no client to ask for a token.
  const hasClient = useContext(ConfabContext) !== null;
  if (!hasClient || !html.includes(`"${imageProxyPath}?url=`)) return <div ref={ref} {...rest} dangerouslySetInnerHTML={{ __html: html }} />;
  return <TokenedHtml ref={ref} html={html} {...rest} />;
});

const TokenedHtml = forwardRef<HTMLDivElement, ProxiedHtmlProps>(function TokenedHtml({ html, ...rest }, ref) {
  const client = useConfabClient();
  const token = useImageToken();
  return <div ref={ref} {...rest} dangerouslySetInnerHTML={{ __html: withImageProxyAccess(html, { baseUrl: client.baseUrl, token }) }} />;
});

/** A remote image URL (e.g. a drop's featured image) through the proxy, with the API's origin and a file token. */
export function useProxiedImageSrc(src: string): string {
  const client = useConfabClient();
  const token = useImageToken();
  const proxied = proxiedImageSrc(src);
  if (proxied === src) return src;
  const query = token === null ? '' : `token=${encodeURIComponent(token)}&`;
  return `${client.baseUrl.replace(/\/+$/, '')}${imageProxyPath}?${query}${proxied.slice(imageProxyPath.length + 1)}`;
}
