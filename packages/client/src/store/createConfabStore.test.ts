import { describe, expect, it, vi } from 'vitest';
import { buildChat, buildUser } from '../testing/builders';
import { createConfabStore, initialClientState } from './createConfabStore';

describe('createConfabStore', () => {
  it('starts signed out and initializing', () => {
    expect(createConfabStore().getState()).toEqual(initialClientState);
    expect(initialClientState.initializing).toBe(true);
  });

  it('follows the user with isAuthenticated', () => {
    const store = createConfabStore();
    const user = buildUser();
    store.actions.setUser(user);
    expect(store.getState()).toMatchObject({ user, isAuthenticated: true });
    store.actions.setUser(null);
    expect(store.getState()).toMatchObject({ user: null, isAuthenticated: false });
  });

  it('derives isCurrentUserAdmin from the current chat and the user, in either order', () => {
    const store = createConfabStore();
    const adminChat = buildChat({ id: 'chat1', admins: ['u1'] });
    const otherChat = buildChat({ id: 'chat2', admins: ['u2'] });
    store.actions.setCurrentChat(adminChat);
    expect(store.getState().isCurrentUserAdmin).toBe(false);
    store.actions.setUser(buildUser({ id: 'u1' }));
    expect(store.getState().isCurrentUserAdmin).toBe(true);
    store.actions.setCurrentChat(otherChat);
    expect(store.getState().isCurrentUserAdmin).toBe(false);
    // A direct setState is kept consistent too.
    store.setState({ currentChat: adminChat });
    expect(store.getState().isCurrentUserAdmin).toBe(true);
    store.setState((state) => ({ user: state.user === null ? null : { ...state.user, id: 'u3' } }));
    expect(store.getState().isCurrentUserAdmin).toBe(false);
  });

  it('notifies listeners once per change, already with the derived value', () => {
    const store = createConfabStore({ user: buildUser({ id: 'u1' }) });
    const listener = vi.fn();
    store.subscribe(listener);
    store.actions.setCurrentChat(buildChat({ admins: ['u1'] }));
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener.mock.calls[0]?.[0]).toMatchObject({ isCurrentUserAdmin: true });
  });

  it('has simple setters', () => {
    const store = createConfabStore();
    const chats = [buildChat()];
    store.actions.setChats(chats);
    store.actions.setMessages([]);
    store.actions.setConnected(true);
    store.actions.setSidebarOpen(true);
    store.actions.setAgents([]);
    store.actions.setInitializing(false);
    expect(store.getState()).toMatchObject({ chats, isConnected: true, sidebarOpen: true, initializing: false });
  });

  it('resets to the signed-out state but keeps initializing', () => {
    const store = createConfabStore();
    store.actions.setInitializing(false);
    store.actions.setUser(buildUser());
    store.actions.setCurrentChat(buildChat());
    store.actions.setSidebarOpen(true);
    store.actions.reset();
    expect(store.getState()).toEqual({ ...initialClientState, initializing: false });
  });

  it('keeps isConnected and connectionState in step, whichever is set, and keeps the connection on reset', () => {
    const store = createConfabStore();
    expect(store.getState()).toMatchObject({ connectionState: 'idle', isConnected: false });
    store.actions.setConnectionState('connected');
    expect(store.getState().isConnected).toBe(true);
    store.setState({ isConnected: false });
    expect(store.getState().connectionState).toBe('closed');
    store.setState({ isConnected: true });
    expect(store.getState().connectionState).toBe('connected');
    store.actions.setConnectionState('connecting');
    expect(store.getState().isConnected).toBe(false);
    store.actions.setConnected(false);
    expect(store.getState().connectionState).toBe('connecting');
    store.actions.setConnectionState('connected');
    store.actions.reset();
    expect(store.getState()).toMatchObject({ connectionState: 'connected', isConnected: true, user: null });
  });
});
