import { describe, expect, it } from 'vitest';
import { SignedInFrame } from './layouts/SignedInFrame';
import * as page from './pages';
import { routes } from './routeTable';
import { matchRoutes, Outlet, segmentsOf } from './router';

/** The element types a path renders, outermost first, and the params it captures. */
function match(path: string) {
  const found = matchRoutes(routes, segmentsOf(path));
  return found === null ? null : { types: found.chain.map((element) => element.type), params: found.params };
}

describe('the route table', () => {
  it("puts '/' and every private page in the signed-in frame, so the shell stays from page to page", () => {
    expect(match('/')?.types).toEqual([SignedInFrame, page.ChatHome]);
    expect(match('/profile')?.types).toEqual([SignedInFrame, page.Profile]);
    expect(match('/admin/confab-agents')?.types).toEqual([SignedInFrame, page.ConfabAgents]);
    expect(match('/chat/abc')).toEqual({ types: [SignedInFrame, Outlet, page.Chat], params: { id: 'abc' } });
    expect(match('/chat/abc/options')?.types).toEqual([SignedInFrame, Outlet, page.ChatOptions]);
    expect(match('/chat/new')?.types).toEqual([SignedInFrame, Outlet, page.NewChat]);
    expect(match('/chat/a/b/c')?.types).toEqual([SignedInFrame, Outlet, page.ChatHome]);
  });

  it('gives the drops feed its tab, static paths before :slug', () => {
    const trending = matchRoutes(routes, segmentsOf('/drops/trending'));
    expect(trending?.chain.at(-1)?.props).toEqual({ tab: 'trending' });
    expect(matchRoutes(routes, segmentsOf('/drops/bookmarks'))?.chain.at(-1)?.props).toEqual({ tab: 'bookmarks' });
    expect(match('/drops/launch-plan')).toEqual({ types: [SignedInFrame, Outlet, page.Drop], params: { slug: 'launch-plan' } });
  });

  it('keeps the public pages outside the frame, and matches nothing unknown', () => {
    expect(match('/login')?.types).toEqual([page.Login]);
    expect(match('/join/token%20x')).toEqual({ types: [page.Join], params: { token: 'token x' } });
    expect(match('/nowhere')).toBeNull();
  });
});
