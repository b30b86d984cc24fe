import { useMemo } from 'react';
import { renderDropContent } from '../../internal/dropsClient';
import { ProxiedHtml } from '../../internal/ProxiedHtml';

export interface DropContentProps {
  /** The drop's markdown. */
  content: string;
}

/**
 * A drop's body through the message renderer (docs/PRODUCT.md §1): sanitised HTML from markdown,
 * never the raw text as HTML; plain text when rendering is not possible. A search-results body (not
 * a drop's usual content) is shown as its text.
 */
export function DropContent({ content }: DropContentProps) {
  const rendered = useMemo(() => renderDropContent(content), [content]);
  if (rendered.kind === 'html') {
    // renderMessageContent's html is ALREADY SANITISED by the client's DOMPurify allow-list.
    return <ProxiedHtml className="cf-drop-view__content cf-message__body--html" html={rendered.html} />;
  }
  return <div className="cf-drop-view__content cf-drop-view__content--text">{rendered.kind === 'text' ? rendered.text : content}</div>;
}
