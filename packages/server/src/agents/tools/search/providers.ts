import type { ServerConfig } from '../../../config';
import { BraveProvider } from './brave';
import { SearxngProvider } from './searxng';
import type { SearchProvider } from './types';

/** The web search providers this server is configured with (none: @deep searches the workspace alone). */
export function configuredSearchProviders(config: Pick<ServerConfig, 'searxngUrl' | 'braveApiKey' | 'braveBaseUrl'>): SearchProvider[] {
  const providers: SearchProvider[] = [];
  if (config.searxngUrl !== undefined) providers.push(new SearxngProvider(config.searxngUrl));
  if (config.braveApiKey !== undefined) providers.push(new BraveProvider(config.braveApiKey, config.braveBaseUrl));
  return providers;
}

/** What @deep says when no provider is configured. */
export const addSearchProviderHint =
  'No web search is configured on this server, so I searched this chat only. A server admin can add one: `CONFAB_SEARXNG_URL` (a SearXNG instance with the JSON format on) or `CONFAB_BRAVE_API_KEY` (Brave Search API).';
