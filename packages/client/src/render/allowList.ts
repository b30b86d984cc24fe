/**
 * The sanitiser's explicit allow-list for message HTML (docs/PRODUCT.md §1: "Rendered HTML is
 * sanitised with an allow-list of tags and attributes. The attributes style and onload are
 * forbidden").
 *
 * Everything not listed here is dropped. The list covers what marked emits for GFM markdown plus
 * the inline HTML agents commonly write; it deliberately leaves out anything that can run script,
 * load a document or submit data (script, style, iframe, object, embed, form, input, svg, math,
 * base, meta, link, template …). `target` and `rel` are not allowed from the author: the
 * renderer sets them itself on every link.
 */
export const ALLOWED_TAGS = [
  'a', 'abbr', 'b', 'blockquote', 'br', 'caption', 'cite', 'code', 'dd', 'del', 'details', 'div',
  'dl', 'dt', 'em', 'figcaption', 'figure', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i', 'img',
  'ins', 'kbd', 'li', 'mark', 'ol', 'p', 'pre', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub',
  'summary', 'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'u', 'ul',
] as const;

/**
 * Attributes allowed on any allowed tag. No `id`/`name` (DOM clobbering of the host page), no
 * `style` (UI redressing, CSS exfiltration), no event handlers. `class` survives only as
 * `language-*` on code (see sanitizer.ts) so messages cannot borrow the app's own CSS classes.
 */
export const ALLOWED_ATTRIBUTES = [
  'alt', 'align', 'class', 'colspan', 'height', 'href', 'open', 'rowspan', 'scope', 'src', 'start',
  'title', 'width',
] as const;

/** Named explicitly (on top of the allow-list) because docs/PRODUCT.md §1 forbids them by name. */
export const FORBIDDEN_ATTRIBUTES = ['style', 'onload', 'onerror', 'srcset', 'formaction', 'xlink:href'] as const;

/** Named explicitly so a later widening of ALLOWED_TAGS cannot let these in by accident. */
export const FORBIDDEN_TAGS = [
  'script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'form', 'input', 'button',
  'textarea', 'select', 'option', 'svg', 'math', 'base', 'link', 'meta', 'template', 'noscript',
] as const;

/**
 * href/src values allowed: http(s), mailto, or relative (no scheme at all). DOMPurify strips
 * whitespace and control characters before testing, so `java\tscript:` cannot sneak through.
 * The shape follows DOMPurify's default IS_ALLOWED_URI with the protocol list cut down.
 */
export const ALLOWED_URI_REGEXP = /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

/** Added to every link: no window.opener access, no referrer leak, no SEO endorsement. */
export const LINK_REL = 'noopener noreferrer nofollow';
