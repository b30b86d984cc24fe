import { constants, renderMessageContent, type DropsState, type FeedTab, type RenderedContent } from '@confab/client';
import { useConfabClient, useStoreSelection } from '../provider/hooks';
import type { ConfabUiClient } from '../provider/clientInterface';

/*
 * The seam chat-ui reads the drops surface of @confab/client through (docs/CONTRACTS.md, Drops):
 * client.drops and its store, and the small display rules the drops parts share.
 */

export const dropsOf = (client: ConfabUiClient) => client.drops;

/**
 * Subscribes to a slice of client.drops.store (docs/STYLE.md, State lives in the client: React
 * binds to it); memoised per store state like useConfabStore.
 *
 * @example const feed = useDropsStore((state) => state.feed);
 */
export function useDropsStore<T>(selector: (state: DropsState) => T): T {
  return useStoreSelection(useConfabClient().drops.store, selector);
}

/** The route of a feed tab (docs/PRODUCT.md §2): /drops, /drops/trending, /drops/discover; ours: /drops/bookmarks (Saved). */
export function feedTabPath(tab: FeedTab): string {
  return tab === constants.defaultFeedTab ? '/drops' : `/drops/${tab}`;
}

export const dropPath = (slug: string) => `/drops/${encodeURIComponent(slug)}`;
export const chatDropsPath = (chatId: string) => `/chat/${encodeURIComponent(chatId)}/drops`;

/** docs/PRODUCT.md §9: a card shows at most 3 tags, then '+N' for the rest. */
export function cardTags(tags: readonly string[], max: number = constants.drop.cardMaxTags): { shown: string[]; more: number } {
  return { shown: tags.slice(0, max), more: Math.max(0, tags.length - max) };
}

/** A drop's markdown through the message renderer: the same sanitiser as messages (docs/PRODUCT.md §1). */
export function renderDropContent(content: string): RenderedContent {
  return renderMessageContent(content);
}
