import { act, render, renderHook, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { ClientState } from '@confab/client';
import { createTestClient } from '../../test/renderWithConfab';
import { Link, type LinkProps } from '../components/Link/Link';
import { createFakeBackend } from '@confab/client/testing/fakeBackend';
import { useComponents } from './ComponentsContext';
import { ConfabProvider } from './ConfabProvider';
import { useConfabClient, useConfabStore, useNavigate } from './hooks';

function wrapperFor(client = createTestClient(createFakeBackend()), navigate = vi.fn()) {
  return ({ children }: { children: ReactNode }) => (
    <ConfabProvider client={client} navigate={navigate}>
      {children}
    </ConfabProvider>
  );
}

describe('ConfabProvider hooks', () => {
  it.each<[string, () => unknown]>([
    ['useConfabClient', () => useConfabClient()],
    ['useNavigate', () => useNavigate()],
    ['useComponents', () => useComponents()],
    ['useConfabStore', () => useConfabStore((state) => state.user)],
  ])('%s throws outside the provider', (name, hook) => {
    // React logs the thrown error; keep the test output clean.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => renderHook(hook)).toThrow(`${name} must be used inside <ConfabProvider>.`);
  });

  it('gives the client and the navigate function', () => {
    const client = createTestClient(createFakeBackend());
    const navigate = vi.fn();
    const { result } = renderHook(() => ({ client: useConfabClient(), navigate: useNavigate() }), {
      wrapper: wrapperFor(client, navigate),
    });
    expect(result.current.client).toBe(client);
    expect(result.current.navigate).toBe(navigate);
  });

  it('re-renders store subscribers only when their slice changes', () => {
    const client = createTestClient(createFakeBackend());
    let renders = 0;
    const { result } = renderHook(
      () => {
        renders += 1;
        return useConfabStore((state: ClientState) => state.sidebarOpen);
      },
      { wrapper: wrapperFor(client) },
    );
    expect(result.current).toBe(false);
    const before = renders;
    act(() => client.store.setState({ isConnected: true }));
    expect(renders).toBe(before);
    act(() => client.store.setState({ sidebarOpen: true }));
    expect(result.current).toBe(true);
  });

  it('accepts selectors that build new objects without looping', () => {
    const client = createTestClient(createFakeBackend());
    const { result } = renderHook(() => useConfabStore((state) => ({ open: state.sidebarOpen, chats: state.chats.length })), {
      wrapper: wrapperFor(client),
    });
    expect(result.current).toEqual({ open: false, chats: 0 });
    act(() => client.store.setState({ sidebarOpen: true }));
    expect(result.current).toEqual({ open: true, chats: 0 });
  });
});

describe('components context', () => {
  it('provides the defaults', () => {
    const { result } = renderHook(() => useComponents(), { wrapper: wrapperFor() });
    expect(result.current.Link).toBe(Link);
  });

  it('merges overrides over the defaults', () => {
    function RouterLink({ to, children }: LinkProps) {
      return <a href={`#${to}`}>{children} (custom)</a>;
    }
    function Consumer() {
      const { Link: AnyLink, Logo } = useComponents();
      return (
        <>
          <AnyLink to="/login">Sign In</AnyLink>
          <Logo />
        </>
      );
    }
    render(
      <ConfabProvider client={createTestClient(createFakeBackend())} navigate={vi.fn()} components={{ Link: RouterLink }}>
        <Consumer />
      </ConfabProvider>,
    );
    expect(screen.getByRole('link', { name: 'Sign In (custom)' })).toHaveAttribute('href', '#/login');
    expect(screen.getByText('Confab')).toBeInTheDocument();
  });
});
