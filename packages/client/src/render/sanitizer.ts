/**
 * DOMPurify configured with the message allow-list, one instance per window.
 *
 * DOMPurify needs a DOM. Without one its `sanitize` returns the input unchanged, so this module
 * never hands out a sanitiser for a window that DOMPurify reports as unsupported: the caller
 * falls back to plain text instead of risking raw HTML.
 */
import createDOMPurify, { type Config, type DOMPurify, type WindowLike } from 'dompurify';
import {
  ALLOWED_ATTRIBUTES,
  ALLOWED_TAGS,
  ALLOWED_URI_REGEXP,
  FORBIDDEN_ATTRIBUTES,
  FORBIDDEN_TAGS,
  LINK_REL,
} from './allowList';
import { proxiedImageSrc } from './imageProxy';

export type { WindowLike };
export type Sanitizer = (html: string) => string;

const CONFIG: Config = {
  ALLOWED_TAGS: [...ALLOWED_TAGS],
  ALLOWED_ATTR: [...ALLOWED_ATTRIBUTES],
  FORBID_TAGS: [...FORBIDDEN_TAGS],
  FORBID_ATTR: [...FORBIDDEN_ATTRIBUTES],
  ALLOWED_URI_REGEXP,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  ALLOW_SELF_CLOSE_IN_ATTR: false,
  // The result is assigned with innerHTML/dangerouslySetInnerHTML, so a string is what we want.
  RETURN_DOM: false,
  RETURN_DOM_FRAGMENT: false,
  RETURN_TRUSTED_TYPE: false,
};

/** Same characters DOMPurify strips before its own URI test; browsers ignore them in URLs too. */
const URL_WHITESPACE = /[\u0000-\u0020\u00A0\u1680\u180E\u2000-\u2029\u205F\u3000]/g;
const CODE_LANGUAGE_CLASS = /^language-[\w+#.-]{1,40}$/;

const sanitizers = new WeakMap<object, Sanitizer | null>();

/** The sanitiser for `window`, or null when DOMPurify cannot run there (no real DOM). */
export function sanitizerFor(window: WindowLike): Sanitizer | null {
  const cached = sanitizers.get(window);
  if (cached !== undefined) return cached;
  const purify = createDOMPurify(window);
  const sanitizer = purify.isSupported ? configure(purify) : null;
  sanitizers.set(window, sanitizer);
  return sanitizer;
}

function configure(purify: DOMPurify): Sanitizer {
  purify.addHook('uponSanitizeAttribute', (node, event) => {
    const name = event.attrName;
    if (name === 'href' || name === 'src') {
      // DOMPurify lets data: through on img/audio/video; docs/PRODUCT.md §1 allows only http(s)/mailto/relative.
      const compact = event.attrValue.replace(URL_WHITESPACE, '');
      if (!ALLOWED_URI_REGEXP.test(compact)) event.keepAttr = false;
    } else if (name === 'class') {
      // Keep marked's `language-xyz` on code so highlighting works; drop any other class so a
      // message cannot reuse the app's layout classes to overlay the UI.
      const kept = node.nodeName === 'CODE'
        ? event.attrValue.split(/\s+/).filter((token) => CODE_LANGUAGE_CLASS.test(token))
        : [];
      if (kept.length === 0) event.keepAttr = false;
      else event.attrValue = kept.join(' ');
    }
  });
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A') {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', LINK_REL);
    } else if (node.nodeName === 'IMG') {
      node.setAttribute('loading', 'lazy');
      node.setAttribute('decoding', 'async');
      // The proxy's answer needs no referrer either.
      node.setAttribute('referrerpolicy', 'no-referrer');
      // An image its author gave no text is decorative to a screen reader (`alt=""`), never a
      // bare file name read aloud (axe: image-alt).
      if (!node.hasAttribute('alt')) node.setAttribute('alt', '');
      // Remote images load through the server's image proxy (docs/SECURITY.md C9): the host never
      // sees the reader.
      const src = node.getAttribute('src');
      if (src !== null) node.setAttribute('src', proxiedImageSrc(src));
    }
  });
  return (html) => purify.sanitize(html, CONFIG);
}
