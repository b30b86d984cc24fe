import { render, renderHook, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BrowserControlSection, useBrowserRendering } from './BrowserControlSection';

afterEach(() => vi.unstubAllGlobals());

/** A fetch that answers /api/health with `data`, and records what it was asked. */
function healthFetch(status: number, data: unknown) {
  return vi.fn(async (input: RequestInfo | URL) => {
    expect(String(input)).toBe('https://confab.test/api/health');
    return new Response(JSON.stringify({ message: 'API is healthy.', code: status, data }), { status, headers: { 'content-type': 'application/json' } });
  });
}

describe('BrowserControlSection', () => {
  it('says whether JavaScript rendering is on, and nothing about it until known', () => {
    const { rerender } = render(<BrowserControlSection rendering={null} />);
    expect(screen.getByRole('heading', { name: 'Browser control' })).toBeInTheDocument();
    expect(screen.getByText(/never from your own browser/)).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    rerender(<BrowserControlSection rendering />);
    expect(screen.getByRole('status')).toHaveTextContent('JavaScript rendering is on');
    rerender(<BrowserControlSection rendering={false} />);
    expect(screen.getByRole('status')).toHaveTextContent('JavaScript rendering is off');
    expect(screen.getByRole('status')).toHaveTextContent('CONFAB_BROWSE_CHROMIUM');
  });

  it("reads the server's /api/health: on when it reports browse rendering, off when it does not", async () => {
    vi.stubGlobal('fetch', healthFetch(200, { browse: { renders_javascript: true } }));
    const on = renderHook(() => useBrowserRendering('https://confab.test'));
    await waitFor(() => expect(on.result.current).toBe(true));

    vi.stubGlobal('fetch', healthFetch(200, {}));
    const off = renderHook(() => useBrowserRendering('https://confab.test'));
    await waitFor(() => expect(off.result.current).toBe(false));

    vi.stubGlobal('fetch', healthFetch(503, {}));
    const unknown = renderHook(() => useBrowserRendering('https://confab.test'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(unknown.result.current).toBeNull();
  });
});
