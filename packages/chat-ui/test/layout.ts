import { vi } from 'vitest';

/**
 * jsdom has no layout: every size is 0 and assigning scrollTop fires no scroll event, so a
 * virtualised list would think it has no room and never hear about scrolling. This gives the
 * message list's scroll container a viewport, a scrollHeight from its canvas, a clamped scrollTop
 * that fires 'scroll' like a browser, and scrollTo, so the virtualiser behaves as in a browser.
 */
export function stubMessageListLayout(viewportPx = 600): void {
  const isList = (element: Element) => element.classList.contains('cf-message-list');
  const contentHeight = (element: Element) => {
    const canvas = element.querySelector<HTMLElement>('.cf-message-list__canvas');
    return canvas ? Number.parseFloat(canvas.style.height) || 0 : 0;
  };
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
    return isList(this) ? viewportPx : 0;
  });
  vi.spyOn(Element.prototype, 'scrollHeight', 'get').mockImplementation(function (this: Element) {
    return isList(this) ? Math.max(contentHeight(this), viewportPx) : 0;
  });
  const positions = new WeakMap<Element, number>();
  vi.spyOn(Element.prototype, 'scrollTop', 'get').mockImplementation(function (this: Element) {
    return positions.get(this) ?? 0;
  });
  vi.spyOn(Element.prototype, 'scrollTop', 'set').mockImplementation(function (this: Element, value: number) {
    const max = isList(this) ? Math.max(0, contentHeight(this) - viewportPx) : 0;
    const next = Math.min(Math.max(0, value), max);
    if (next === (positions.get(this) ?? 0)) return;
    positions.set(this, next);
    this.dispatchEvent(new Event('scroll'));
  });
  Element.prototype.scrollTo = function scrollTo(this: Element, options?: ScrollToOptions | number, y?: number) {
    const top = typeof options === 'number' ? (y ?? 0) : (options?.top ?? this.scrollTop);
    this.scrollTop = top;
  } as Element['scrollTo'];
}
