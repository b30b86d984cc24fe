import { afterEach, describe, expect, it, vi } from 'vitest';
import { appPathOf, createBrowserHistory, createMemoryHistory, normalizeBasePath } from './history';

afterEach(() => window.history.replaceState(null, '', '/'));

describe('normalizeBasePath and appPathOf', () => {
  it.each([
    ['/', ''],
    ['', ''],
    ['/team-chat', '/team-chat'],
    ['/team-chat/', '/team-chat'],
    ['team-chat', '/team-chat'],
  ])('%j is the base %j', (basePath, base) => expect(normalizeBasePath(basePath)).toBe(base));

  it('reads app paths under the base, and nothing outside it', () => {
    expect(appPathOf('/team-chat', '/team-chat')).toBe('/');
    expect(appPathOf('/team-chat/', '/team-chat')).toBe('/');
    expect(appPathOf('/team-chat/chat/abc', '/team-chat')).toBe('/chat/abc');
    expect(appPathOf('/team-chatter/x', '/team-chat')).toBeNull();
    expect(appPathOf('/elsewhere', '/team-chat')).toBeNull();
    expect(appPathOf('/chat/abc', '')).toBe('/chat/abc');
  });
});

describe('createBrowserHistory', () => {
  it('pushes app paths under the base path, with their state, and tells its listeners', () => {
    window.history.replaceState(null, '', '/team-chat/login?redirect=%2Fjoin%2Fx');
    const history = createBrowserHistory('/team-chat/');
    expect(history.location()).toEqual({ pathname: '/login', search: '?redirect=%2Fjoin%2Fx', hash: '', state: null });
    expect(history.location()).toBe(history.location());
    const listener = vi.fn();
    const unsubscribe = history.subscribe(listener);
    history.navigate('/chat/new', { state: { preselectedAgent: 'a' } });
    expect(window.location.pathname).toBe('/team-chat/chat/new');
    expect(history.location()).toMatchObject({ pathname: '/chat/new', state: { preselectedAgent: 'a' } });
    expect(listener).toHaveBeenCalledTimes(1);
    // Only the state changes: a new location all the same.
    history.navigate('/chat/new', { replace: true, state: null });
    expect(history.location()).toMatchObject({ pathname: '/chat/new', state: null });
    expect(history.href('/profile')).toBe('/team-chat/profile');
    unsubscribe();
  });

  it("reads a URL outside the base path as the app's '/'", () => {
    window.history.replaceState(null, '', '/somewhere/else');
    expect(createBrowserHistory('/team-chat').location().pathname).toBe('/');
  });
});

describe('createMemoryHistory', () => {
  it('moves without touching the URL, from its initial path', () => {
    window.history.replaceState(null, '', '/host/page');
    const history = createMemoryHistory('/chat/abc?x=1');
    expect(history.location()).toEqual({ pathname: '/chat/abc', search: '?x=1', hash: '', state: null });
    const listener = vi.fn();
    history.subscribe(listener);
    history.navigate('/profile', { state: { from: 'test' } });
    expect(history.location()).toEqual({ pathname: '/profile', search: '', hash: '', state: { from: 'test' } });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(window.location.pathname).toBe('/host/page');
    // Links point at the host page: there is no URL for an app path.
    expect(history.href('/profile')).toBe(window.location.href);
  });
});
