// Message body rendering (docs/PRODUCT.md §1): search-result JSON, sanitised markdown/HTML, or
// plain text.
export { renderMessageContent, createMessageRenderer } from './renderMessageContent';
export type { RenderedContent, MessageRenderer, WindowLike } from './renderMessageContent';
export { parseSearchResults } from './searchResults';
export { parseChart } from './charts';
export { imageProxyPath, proxiedImageSrc, withImageProxyAccess } from './imageProxy';
export {
  ALLOWED_TAGS,
  ALLOWED_ATTRIBUTES,
  FORBIDDEN_TAGS,
  FORBIDDEN_ATTRIBUTES,
  ALLOWED_URI_REGEXP,
  LINK_REL,
} from './allowList';
