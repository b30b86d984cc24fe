import { useEffect, useState } from 'react';

/** What `GET /api/health` says of @browse: `data.browse.renders_javascript` when pages are rendered. */
interface HealthAnswer {
  data?: { browse?: { renders_javascript?: boolean } };
}

/**
 * Whether the server renders pages for @browse in a headless browser (CONFAB_BROWSE_CHROMIUM),
 * as its `/api/health` says; null until it answers (or when it cannot be asked).
 */
export function useBrowserRendering(baseUrl: string): boolean | null {
  const [rendering, setRendering] = useState<boolean | null>(null);
  useEffect(() => {
    if (typeof fetch !== 'function') return undefined;
    let active = true;
    fetch(`${baseUrl}/api/health`, { headers: { Accept: 'application/json' } })
      .then((response) => (response.ok ? (response.json() as Promise<HealthAnswer>) : undefined))
      .then(
        (health) => {
          if (active && health !== undefined) setRendering(health.data?.browse?.renders_javascript === true);
        },
        () => undefined,
      );
    return () => {
      active = false;
    };
  }, [baseUrl]);
  return rendering;
}

export interface BrowserControlSectionProps {
  /** True: pages are rendered headless; false: read as fetched; null: not known yet. */
  rendering: boolean | null;
}

/** Chat Options' browser control info (docs/PRODUCT.md §2): how agents browse the web for this chat. */
export function BrowserControlSection({ rendering }: BrowserControlSectionProps) {
  return (
    <section className="cf-card cf-options__section" aria-labelledby="cf-options-browser">
      <h2 id="cf-options-browser">Browser control</h2>
      <p>
        Agents that browse the web for this chat (such as @browse) do it from the server, never from your own browser, and
        only reach public addresses.
      </p>
      {rendering === null ? null : (
        <p className="cf-status cf-status--info" role="status">
          {rendering
            ? 'JavaScript rendering is on: each page is opened in a headless browser on the server, in a session of its own, so pages that need scripts are read too.'
            : 'JavaScript rendering is off: pages are read as the server fetches them, without running their scripts. A server operator turns it on with CONFAB_BROWSE_CHROMIUM.'}
        </p>
      )}
    </section>
  );
}
