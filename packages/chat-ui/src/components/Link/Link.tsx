import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { useAppLinks } from '../../provider/AppLinksContext';
import { useNavigate } from '../../provider/hooks';

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** An in-app path such as `/login` or `/register?source=main-landing`. */
  to: string;
  /** Replace the current history entry instead of pushing one. */
  replace?: boolean | undefined;
}

/** True when the browser should handle the click itself (new tab, download, other frame…). */
export function isBrowserHandledClick(event: MouseEvent<HTMLAnchorElement>, target: string | undefined): boolean {
  return (
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.altKey ||
    event.ctrlKey ||
    event.shiftKey ||
    (target !== undefined && target !== '_self')
  );
}

/**
 * The default in-app link: a real `<a href>` (so it can be opened in a new tab and read by
 * assistive technology) whose plain left click is routed through the host's navigate. Inside
 * ConfabApp the href carries its base path, and pointing at the link fetches its page ahead.
 */
export function Link({ to, replace, onClick, onPointerEnter, onFocus, target, children, ...rest }: LinkProps) {
  const navigate = useNavigate();
  const { href, prefetch } = useAppLinks();
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (isBrowserHandledClick(event, target)) return;
    event.preventDefault();
    if (replace) navigate(to, { replace });
    else navigate(to);
  };
  return (
    <a
      {...rest}
      href={href(to)}
      target={target}
      onClick={handleClick}
      onPointerEnter={(event) => {
        onPointerEnter?.(event);
        prefetch(to);
      }}
      onFocus={(event) => {
        onFocus?.(event);
        prefetch(to);
      }}
    >
      {children}
    </a>
  );
}
