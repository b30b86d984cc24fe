import { act, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend, json } from '@confab/client/testing/fakeBackend';
import { chatRecord } from '../../testing/builders';
import { mentionQueryAt, MessageInput } from './MessageInput';

const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice Liddell', password: 'wonderland' };

async function setup(props: { disabled?: boolean } = {}) {
  const backend = createFakeBackend({ users: [alice] });
  backend.addAgent({ username: 'deep', name: 'Deep Research', agent_type: 'confab-agent', description: 'Researches a question across many sources and writes a report with citations.' });
  backend.addAgent({ username: 'data', name: 'Data Analyst', agent_type: 'confab-agent', description: 'SQL over the chat files' });
  backend.addAgent({ username: 'dev_echo', name: 'Echo', description: '' });
  const onSend = vi.fn();
  const result = renderWithConfab(<MessageInput chatId="chat_design_001" onSend={onSend} {...props} />, { backend });
  await act(() => result.client.login('alice', 'wonderland'));
  return { ...result, onSend, field: screen.getByRole('combobox', { name: 'Message' }) };
}

const searches = (backend: ReturnType<typeof createFakeBackend>) => backend.requests.filter((request) => request.route === 'GET /api/agents/search');

describe('MessageInput', () => {
  it('says the user is typing on each change that leaves text, never for blank text', async () => {
    const backend = createFakeBackend({ users: [alice] });
    const onTyping = vi.fn();
    const { user } = renderWithConfab(<MessageInput chatId="chat_design_001" onSend={vi.fn()} onTyping={onTyping} />, { backend });
    const field = screen.getByRole('combobox', { name: 'Message' });
    await user.type(field, '   ');
    expect(onTyping).not.toHaveBeenCalled();
    await user.type(field, 'hi');
    expect(onTyping).toHaveBeenCalledTimes(2);
  });

  it('sends the trimmed text on Enter and clears the field', async () => {
    const { onSend, user, field } = await setup();
    await user.type(field, '  hello there  {Enter}');
    expect(onSend).toHaveBeenCalledWith('hello there');
    expect(field).toHaveValue('');
  });

  it('inserts a newline on Shift+Enter instead of sending', async () => {
    const { onSend, user, field } = await setup();
    await user.type(field, 'line one{Shift>}{Enter}{/Shift}line two');
    expect(onSend).not.toHaveBeenCalled();
    expect(field).toHaveValue('line one\nline two');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledWith('line one\nline two');
  });

  it('never sends blank text', async () => {
    const { onSend, user, field } = await setup();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    await user.type(field, '   {Enter}');
    expect(onSend).not.toHaveBeenCalled();
  });

  it('is disabled when told so', async () => {
    const { field } = await setup({ disabled: true });
    expect(field).toBeDisabled();
  });

  it('toggles the upload zone with its Choose Files control', async () => {
    const { user } = await setup();
    const upload = screen.getByRole('button', { name: 'Upload files' });
    expect(upload).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('region', { name: 'Upload zone' })).not.toBeInTheDocument();
    await user.click(upload);
    expect(upload).toHaveAttribute('aria-expanded', 'true');
    // The zone's code loads on demand: a status with the Spinner first, then the zone.
    const zone = await screen.findByRole('region', { name: 'Upload zone' });
    expect(upload).toHaveAttribute('aria-controls', zone.id);
    expect(screen.getByRole('button', { name: 'Choose Files' })).toBeEnabled();
    await user.click(upload);
    // Hidden, not gone: uploads in progress keep going and show again when reopened.
    expect(screen.queryByRole('region', { name: 'Upload zone' })).not.toBeInTheDocument();
    expect(zone).not.toBeVisible();
  });
});

describe('MessageInput agent autocomplete', () => {
  it('searches the agents the chat permits after @ and a word, debounced, and lists them as options', async () => {
    const { user, field, backend } = await setup();
    expect(field).toHaveAttribute('aria-expanded', 'false');
    await user.type(field, 'ask @de');
    // Searching while the 300 ms debounce runs; one request for the whole word.
    expect(within(screen.getByRole('region', { name: 'Agent suggestions' })).getByRole('status')).toHaveTextContent('Searching agents...');
    const listbox = await screen.findByRole('listbox', { name: 'Agents' });
    expect(searches(backend)).toHaveLength(1);
    expect(backend.requests.find((request) => request.route === 'GET /api/agents/search')).toBeDefined();
    const options = within(listbox).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      expect.stringContaining('@deep'),
      expect.stringContaining('@dev_echo'),
    ]);
    // docs/PRODUCT.md §9: descriptions cut to 60 characters.
    expect(options[0]).toHaveTextContent(/Researches a question across many sources and writes a repo…$/);
    expect('Researches a question across many sources and writes a repo…').toHaveLength(60);
    expect(field).toHaveAttribute('aria-expanded', 'true');
    expect(field).toHaveAttribute('aria-controls', listbox.id);
    expect(field).toHaveAttribute('aria-activedescendant', options[0]?.id);
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
  });

  it('passes the chat so only permitted agent types are offered', async () => {
    const { user, field, backend } = await setup();
    let asked = '';
    backend.override('GET /api/agents/search', (request) => {
      asked = new URL(request.url).search;
      return new Response(JSON.stringify({ agents: [] }), { status: 200, headers: { 'Content-Type': 'application/json' } });
    });
    await user.type(field, '@zz');
    expect(await screen.findByText('No agents found for "zz"')).toBeInTheDocument();
    expect(asked).toBe('?q=zz&chat_id=chat_design_001');
    expect(field).toHaveAttribute('aria-expanded', 'false');
  });

  it('moves with ↑ ↓ and picks with Enter, inserting @username and a space at the mention', async () => {
    const { user, field, onSend } = await setup();
    await user.type(field, 'please @de');
    await screen.findByRole('listbox', { name: 'Agents' });
    await user.keyboard('{ArrowDown}');
    const options = screen.getAllByRole('option');
    expect(options[1]).toHaveAttribute('aria-selected', 'true');
    expect(field).toHaveAttribute('aria-activedescendant', options[1]?.id);
    await user.keyboard('{ArrowDown}{ArrowUp}'); // wraps around both ways
    expect(options[1]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowUp}{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    expect(field).toHaveValue('please @deep ');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(field).toHaveAttribute('aria-expanded', 'false');
    await user.type(field, 'find papers{Enter}');
    expect(onSend).toHaveBeenCalledWith('please @deep find papers');
  });

  it('picks with Tab and with the mouse; the caret lands after the inserted mention', async () => {
    const { user, field } = await setup();
    await user.type(field, '@da');
    await screen.findByRole('option', { name: /@data/ });
    await user.tab();
    expect(field).toHaveValue('@data ');
    expect(field).toHaveFocus();
    await user.type(field, 'and @dev');
    await user.click(await screen.findByRole('option', { name: /@dev_echo/ }));
    expect(field).toHaveValue('@data and @dev_echo ');
    expect(field).toHaveFocus();
    expect((field as HTMLTextAreaElement).selectionStart).toBe('@data and @dev_echo '.length);
  });

  it('closes with Escape, and is hidden inside an e-mail address or after a space', async () => {
    const { user, field } = await setup();
    await user.type(field, 'mail me@example');
    expect(screen.queryByRole('region', { name: 'Agent suggestions' })).not.toBeInTheDocument();
    await user.clear(field);
    await user.type(field, 'hi @de');
    await screen.findByRole('listbox', { name: 'Agents' });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: 'Agent suggestions' })).not.toBeInTheDocument();
    expect(field).toHaveValue('hi @de');
    await user.type(field, ' now');
    expect(screen.queryByRole('region', { name: 'Agent suggestions' })).not.toBeInTheDocument();
  });

  it('lists the agents the chat permits on a bare @, before any letter', async () => {
    const { user, field, backend } = await setup();
    await user.type(field, 'ask @');
    const listbox = await screen.findByRole('listbox', { name: 'Agents' });
    expect(within(listbox).getAllByRole('option').map((option) => option.textContent)).toEqual([
      expect.stringContaining('@deep'),
      expect.stringContaining('@data'),
      expect.stringContaining('@dev_echo'),
    ]);
    expect(searches(backend)).toHaveLength(1);
    // Enter picks the first one at once.
    await user.keyboard('{Enter}');
    expect(field).toHaveValue('ask @deep ');
  });

  it('says so when a bare @ finds no agent the chat allows', async () => {
    const { user, field, backend } = await setup();
    backend.override('GET /api/agents/search', () => json(200, { agents: [] }));
    await user.type(field, '@');
    const region = screen.getByRole('region', { name: 'Agent suggestions' });
    expect(await within(region).findByText('No agents are available in this chat.')).toBeInTheDocument();
    expect(region).toHaveTextContent('A chat admin can allow Confab or developer agents in Chat Options.');
  });

  it("asks again when the chat's agent settings change, without waiting for the next letter", async () => {
    const { user, field, backend, client } = await setup();
    const chat = chatRecord({ id: 'chat_design_001', name: 'Design', agent_permissions: { confab_agents: true, developer_agents: false } });
    act(() => client.store.setState({ chats: [chat], currentChat: chat }));
    // As the server would: developer agents only when the chat allows them.
    backend.override('GET /api/agents/search', () => {
      const current = client.store.getState().currentChat;
      const agents = current?.agent_permissions?.developer_agents === true ? backend.agents.filter((agent) => agent.username === 'dev_echo') : [];
      return json(200, { agents });
    });
    await user.type(field, 'hi @dev');
    expect(await screen.findByText('No agents found for "dev"')).toBeInTheDocument();
    // chat_updated: an admin allowed developer agents.
    const allowed = { ...chat, agent_permissions: { confab_agents: true, developer_agents: true } };
    act(() => client.store.setState({ chats: [allowed], currentChat: allowed }));
    expect(await screen.findByRole('option', { name: /@dev_echo/ })).toBeInTheDocument();
    expect(searches(backend)).toHaveLength(2);
    expect(field).toHaveValue('hi @dev');
  });

  it("says 'No agents found for …' with a hint", async () => {
    const { user, field } = await setup();
    await user.type(field, '@nobody');
    const region = screen.getByRole('region', { name: 'Agent suggestions' });
    expect(await within(region).findByText('No agents found for "nobody"')).toBeInTheDocument();
    expect(region).toHaveTextContent('Only agent types this chat allows are offered.');
  });

  it('detects the mention query', () => {
    expect(mentionQueryAt('@deep', 5)).toBe('deep');
    expect(mentionQueryAt('hi @', 4)).toBe('');
    expect(mentionQueryAt('hi @ ', 5)).toBeNull();
    expect(mentionQueryAt('mail me@example', 15)).toBeNull();
    expect(mentionQueryAt('@deep now', 9)).toBeNull();
    expect(mentionQueryAt('@deep now', 5)).toBe('deep');
  });
});
