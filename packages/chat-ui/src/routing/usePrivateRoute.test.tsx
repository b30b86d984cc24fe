import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { createTestClient } from '../../test/renderWithConfab';
import { ConfabProvider } from '../provider/ConfabProvider';
import { storyUserRecord } from '../storybook/storyClient';
import { createFakeBackend } from '@confab/client/testing/fakeBackend';
import { usePrivateRoute } from './usePrivateRoute';

function setup(pathname: string, signedIn = false) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const client = createTestClient(createFakeBackend());
  if (signedIn) client.store.setState({ user: storyUserRecord, isAuthenticated: true });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <ConfabProvider client={client} navigate={vi.fn()}>
      {children}
    </ConfabProvider>
  );
  return { client, ...renderHook(() => usePrivateRoute(pathname), { wrapper }) };
}

describe('usePrivateRoute', () => {
  it('redirects a visitor on a private path only after the 100 ms check', () => {
    const { result } = setup('/chat');
    expect(result.current).toBe('checking');
    act(() => vi.advanceTimersByTime(99));
    expect(result.current).toBe('checking');
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe('redirect');
  });

  it('lets a signed-in user through at once', () => {
    const { result } = setup('/chat', true);
    expect(result.current).toBe('allow');
  });

  it('allows a visitor on a public path', () => {
    const { result } = setup('/join/abc');
    expect(result.current).toBe('allow');
  });

  it('follows the session: signing out later leads to a redirect', () => {
    const { result, client } = setup('/chat', true);
    act(() => vi.advanceTimersByTime(100));
    expect(result.current).toBe('allow');
    act(() => client.logout());
    expect(result.current).toBe('redirect');
  });
});
