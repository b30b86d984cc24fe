import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend, errorResponse, json, type FakeBackend } from '@confab/client/testing/fakeBackend';
import { ChatOptionsScreen } from './ChatOptionsScreen';

const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice Liddell', password: 'wonderland' };
const bob = { id: 'user_bob_000001', username: 'bob', email: 'bob@example.com', name: 'Bob Builder', password: 'builder123' };
const chatPath = '/api/collections/chats/records/chat_design_001';

afterEach(() => vi.restoreAllMocks());

async function setup(options: { admin?: boolean; chatId?: string; configure?: (backend: FakeBackend) => void } = {}) {
  const backend = createFakeBackend({ users: [alice, bob] });
  backend.addAgent({ username: 'deep', name: 'Deep Research', agent_type: 'confab-agent' });
  backend.addAgent({ username: 'echo_bot', name: 'Echo Bot', agent_type: 'developer-agent', created_by: alice.id });
  backend.addAgent({ username: 'home_only', name: 'Home Only', agent_type: 'developer-agent', created_by: alice.id, site_wide_available: false });
  const chat = backend.addChat({
    id: 'chat_design_001',
    name: 'Design',
    description: 'Weekly sync',
    participants: [alice.id, bob.id],
    admins: options.admin === false ? [bob.id] : [alice.id],
  });
  options.configure?.(backend);
  const result = renderWithConfab(<ChatOptionsScreen chatId={options.chatId ?? chat.id} />, { backend });
  await act(() => result.client.login('alice', 'wonderland'));
  if (options.chatId === undefined) await screen.findByRole('heading', { name: 'General settings' });
  return { ...result, chat };
}

describe('ChatOptionsScreen', () => {
  it('saves name and description', async () => {
    const { user, chat, backend } = await setup();
    const name = screen.getByLabelText('Name');
    expect(name).toHaveValue('Design');
    await user.clear(name);
    await user.type(name, 'Design team');
    await user.clear(screen.getByLabelText('Description'));
    await user.type(screen.getByLabelText('Description'), 'Fridays');
    const release = backend.hold();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(screen.getByRole('button', { name: 'Saving...' })).toBeDisabled();
    await act(async () => release());
    expect(await screen.findByText('Changes saved.')).toBeInTheDocument();
    expect(chat).toMatchObject({ name: 'Design team', description: 'Fridays' });
  });

  it("shows 'Failed to save changes.'", async () => {
    const { user, backend } = await setup();
    backend.override(`PATCH ${chatPath}`, () => errorResponse(500, 'boom'));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to save changes.');
  });

  it('promotes, demotes and removes participants, never yourself', async () => {
    const { user, chat } = await setup();
    const me = screen.getByRole('listitem', { name: 'Alice Liddell' });
    expect(within(me).queryByRole('button')).not.toBeInTheDocument();
    const other = () => screen.getByRole('listitem', { name: 'Bob Builder' });
    // The next button shows once the chat record changes, and stays disabled until the request that
    // changed it has finished (a click on it before then does nothing): wait for both.
    const enabled = async (name: string) => {
      const button = await within(other()).findByRole('button', { name });
      await waitFor(() => expect(button).toBeEnabled());
      return button;
    };
    await user.click(await enabled('Promote'));
    await waitFor(() => expect(chat.admins).toContain(bob.id));
    await user.click(await enabled('Demote'));
    await waitFor(() => expect(chat.admins).not.toContain(bob.id));
    await user.click(await enabled('Remove'));
    await waitFor(() => expect(chat.participants).toEqual([alice.id]));
    expect(await screen.findByRole('listitem', { name: 'Alice Liddell' })).toBeInTheDocument();
    expect(screen.queryByRole('listitem', { name: 'Bob Builder' })).not.toBeInTheDocument();
  });

  it('toggles agent permissions and auto-routing, and saves the auto-routing agent', async () => {
    const { user, chat } = await setup();
    expect(screen.getByRole('switch', { name: 'Confab agents' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Developer agents' })).not.toBeChecked();
    await user.click(screen.getByRole('switch', { name: 'Developer agents' }));
    await waitFor(() => expect(chat.agent_permissions).toEqual({ confab_agents: true, developer_agents: true, agents_may_read_files: false }));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Auto-routing' })).toBeEnabled());
    await user.click(screen.getByRole('switch', { name: 'Auto-routing' }));
    await waitFor(() => expect(screen.getByLabelText('Auto-routing agent')).toBeEnabled());
    expect(chat.auto_route_enabled).toBe(true);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Auto-routing agent' }), '@deep · Deep Research (Confab agent)');
    await user.click(screen.getByRole('button', { name: 'Save Agent' }));
    await waitFor(() => expect(chat.auto_route_agent).toBe('deep'));
  });

  it("lets an admin allow agents to ask @data and @deep about the chat's files, off until then", async () => {
    const { user, chat } = await setup();
    const files = screen.getByRole('switch', { name: 'Agents may read files' });
    expect(files).not.toBeChecked();
    expect(files).toHaveAccessibleDescription(/@data and @deep/);
    await user.click(files);
    await waitFor(() => expect(chat.agent_permissions).toEqual({ confab_agents: true, developer_agents: false, agents_may_read_files: true }));
    expect(screen.getByRole('switch', { name: 'Agents may read files' })).toBeChecked();
    // The other switches keep it: saving one sends the whole setting.
    await user.click(screen.getByRole('switch', { name: 'Developer agents' }));
    await waitFor(() => expect(chat.agent_permissions).toEqual({ confab_agents: true, developer_agents: true, agents_may_read_files: true }));
  });

  it('offers the agents the chat permits for auto-routing, with the chat in the search', async () => {
    // What the server's search answers for this chat (its rules: permitted types, site-wide only).
    let asked = '';
    const { user } = await setup({
      configure: (backend) =>
        backend.override('GET /api/agents/search', (request) => {
          asked = new URL(request.url).search;
          return json(200, { agents: backend.agents.filter((agent) => agent.username === 'deep') });
        }),
    });
    const select = screen.getByRole('combobox', { name: 'Auto-routing agent' });
    const offered = () => within(select).getAllByRole('option').map((option) => option.textContent);
    await waitFor(() => expect(offered()).toEqual(['Choose an agent', '@deep · Deep Research (Confab agent)']));
    expect(asked).toBe('?q=agent&chat_id=chat_design_001');
    // Allowing developer agents offers the user's own site-wide ones too (not one kept to its dev room).
    await user.click(screen.getByRole('switch', { name: 'Developer agents' }));
    await waitFor(() =>
      expect(offered()).toEqual(['Choose an agent', '@deep · Deep Research (Confab agent)', '@echo_bot · Echo Bot (Developer agent)']),
    );
  });

  it('keeps a saved auto-routing agent the chat no longer offers choosable', async () => {
    const backend = createFakeBackend({ users: [alice] });
    backend.addChat({ id: 'chat_design_001', name: 'Design', participants: [alice.id], auto_route_enabled: true, auto_route_agent: 'gone_bot' });
    const { client } = renderWithConfab(<ChatOptionsScreen chatId="chat_design_001" />, { backend });
    await act(() => client.login('alice', 'wonderland'));
    const select = await screen.findByRole('combobox', { name: 'Auto-routing agent' });
    expect(select).toHaveValue('gone_bot');
    expect(within(select).getByRole('option', { name: '@gone_bot (not offered in this chat)' })).toBeInTheDocument();
  });

  it.each([
    ['Developer agents', 'Failed to save agent settings.'],
    ['Agents may read files', 'Failed to save agent settings.'],
    ['Auto-routing', 'Failed to save auto-routing settings.'],
  ])('rolls back %s and says %s on failure', async (name, message) => {
    const { user, backend } = await setup();
    backend.override(`PATCH ${chatPath}`, () => errorResponse(500, 'boom'));
    await user.click(screen.getByRole('switch', { name }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('switch', { name })).not.toBeChecked();
  });

  it("says 'Failed to save auto-routing agent.'", async () => {
    const { user, backend } = await setup();
    await user.click(screen.getByRole('switch', { name: 'Auto-routing' }));
    await waitFor(() => expect(screen.getByLabelText('Auto-routing agent')).toBeEnabled());
    backend.override(`PATCH ${chatPath}`, () => errorResponse(500, 'boom'));
    const select = screen.getByRole('combobox', { name: 'Auto-routing agent' });
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(2));
    await user.selectOptions(select, 'deep');
    await user.click(screen.getByRole('button', { name: 'Save Agent' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to save auto-routing agent.');
    expect(select).toHaveValue('');
  });

  it('deletes the chat only after the confirmation', async () => {
    const { user, backend, navigate } = await setup();
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    await user.click(screen.getByRole('button', { name: 'Delete Chat' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure? You will lose all of the files associated with this chat. This action cannot be undone.');
    expect(backend.chats).toHaveLength(1);
    confirm.mockReturnValue(true);
    await user.click(screen.getByRole('button', { name: 'Delete Chat' }));
    expect(backend.chats).toHaveLength(0);
    expect(navigate).toHaveBeenCalledWith('/chat', { replace: true });
  });

  it("says 'Failed to delete chat.'", async () => {
    const { user, backend } = await setup();
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    backend.override(`DELETE ${chatPath}`, () => errorResponse(500, 'boom'));
    await user.click(screen.getByRole('button', { name: 'Delete Chat' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to delete chat.');
  });

  it('leaves the chat after the inline confirmation, and goes to /chat', async () => {
    const { user, chat, client, navigate, backend } = await setup({ admin: false });
    await act(() => client.chats.list());
    await user.click(screen.getByRole('button', { name: 'Leave chat' }));
    const confirm = screen.getByRole('group', { name: 'Leave Design?' });
    // Cancel is focused first; Escape cancels too, back to the Leave chat button.
    expect(within(confirm).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Leave Design?' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Leave chat' })).toHaveFocus());
    expect(backend.requests.some((request) => request.route.endsWith('/leave'))).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Leave chat' }));
    await user.click(screen.getByRole('button', { name: 'Yes, leave chat' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/chat', { replace: true }));
    expect(backend.requests.at(-1)?.route).toBe('POST /api/chats/chat_design_001/leave');
    expect(chat.participants).toEqual([bob.id]);
    expect(client.store.getState().chats).toEqual([]);
  });

  it("shows the server's refusal when the last admin tries to leave, and stays", async () => {
    const { user, backend, navigate } = await setup();
    const lastAdmin = 'You are the last admin of this chat. Make another participant an admin before leaving.';
    backend.override('POST /api/chats/chat_design_001/leave', () => errorResponse(400, lastAdmin));
    await user.click(screen.getByRole('button', { name: 'Leave chat' }));
    await user.click(screen.getByRole('button', { name: 'Yes, leave chat' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(lastAdmin);
    expect(navigate).not.toHaveBeenCalledWith('/chat', { replace: true });
    expect(screen.getByRole('button', { name: 'Leave chat' })).toBeEnabled();
  });

  it("says 'Failed to leave chat.' when the server gives no reason", async () => {
    const { user, backend } = await setup();
    backend.override('POST /api/chats/chat_design_001/leave', () => errorResponse(500, 'boom'));
    await user.click(screen.getByRole('button', { name: 'Leave chat' }));
    await user.click(screen.getByRole('button', { name: 'Yes, leave chat' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to leave chat.');
  });

  it('disables every control for non-admins', async () => {
    await setup({ admin: false });
    expect(screen.getByRole('note')).toHaveTextContent('Only chat admins can change these settings.');
    for (const field of ['Name', 'Description', 'Auto-routing agent']) expect(screen.getByLabelText(field)).toBeDisabled();
    for (const name of ['Save Changes', 'Save Agent', 'Delete Chat', 'Demote', 'Remove']) {
      for (const button of screen.getAllByRole('button', { name })) expect(button).toBeDisabled();
    }
    for (const name of ['Confab agents', 'Developer agents', 'Agents may read files', 'Auto-routing']) expect(screen.getByRole('switch', { name })).toBeDisabled();
    // Anyone may leave.
    expect(screen.getByRole('button', { name: 'Leave chat' })).toBeEnabled();
  });

  it('shows the browser control info and goes back to the chat', async () => {
    const { user, navigate } = await setup();
    expect(screen.getByRole('heading', { name: 'Browser control' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back to chat' }));
    expect(navigate).toHaveBeenCalledWith('/chat/chat_design_001');
  });

  it('shows a not-found state for an unknown chat', async () => {
    await setup({ chatId: 'chat_missing_01' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Chat not found');
  });
});
