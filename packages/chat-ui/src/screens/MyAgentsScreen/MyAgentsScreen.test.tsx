import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend, errorResponse } from '@confab/client/testing/fakeBackend';
import { rotateKeyConfirmation } from './AgentCard';
import { MyAgentsScreen } from './MyAgentsScreen';
import { quickstartAgentUsername, quickstartSteps } from './quickstart';

const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice Liddell', password: 'wonderland' };

async function setup(options: { confirm?: (question: string) => boolean; copyText?: (text: string) => Promise<void> } = {}) {
  const backend = createFakeBackend({ users: [alice] });
  const echo = backend.addAgent({ username: 'echo_bot', name: 'Echo Bot', description: 'Repeats you.', status: 'online', dev_room_id: 'chat_devroom_01', created_by: alice.id });
  backend.addAgent({ username: 'todo_keeper', name: 'Todo Keeper', status: 'offline', site_wide_available: false, created_by: alice.id });
  backend.addAgent({ username: 'deep', name: 'Deep Research', agent_type: 'confab-agent' });
  const confirm = vi.fn(options.confirm ?? (() => true));
  const copyText = vi.fn(options.copyText ?? (async () => undefined));
  const result = renderWithConfab(<MyAgentsScreen confirm={confirm} copyText={copyText} />, { backend });
  await act(() => result.client.login('alice', 'wonderland'));
  await screen.findByRole('article', { name: 'Echo Bot' });
  return { ...result, echo, confirm, copyText };
}

const card = (name: string) => screen.getByRole('article', { name });

describe('MyAgentsScreen', () => {
  it('lists my developer agents with online/offline, availability and the dev room', async () => {
    await setup();
    const list = screen.getByRole('region', { name: 'Your agents' });
    expect(within(list).getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual(['Echo Bot', 'Todo Keeper']);
    expect(card('Echo Bot')).toHaveTextContent('@echo_bot');
    expect(card('Echo Bot')).toHaveTextContent('Online');
    expect(within(card('Echo Bot')).getByLabelText('Availability')).toHaveValue('site-wide');
    expect(within(card('Echo Bot')).getByRole('button', { name: 'Open Dev Room' })).toBeInTheDocument();
    expect(card('Todo Keeper')).toHaveTextContent('Offline');
    expect(card('Todo Keeper')).toHaveTextContent('Dev room pending...');
    expect(within(card('Todo Keeper')).getByLabelText('Availability')).toHaveValue('dev-room');
    expect(screen.queryByRole('article', { name: 'Deep Research' })).not.toBeInTheDocument();
  });

  it('follows agent presence live', async () => {
    const { client, echo } = await setup();
    act(() => client.store.setState((state) => ({ agents: state.agents.map((agent) => (agent.id === echo.id ? { ...agent, status: 'offline' } : agent)) })));
    expect(card('Echo Bot')).toHaveTextContent('Offline');
  });

  it('opens the dev room', async () => {
    const { user, navigate } = await setup();
    await user.click(within(card('Echo Bot')).getByRole('button', { name: 'Open Dev Room' }));
    expect(navigate).toHaveBeenCalledWith('/chat/chat_devroom_01');
  });

  it('creates an agent (name required) and shows its key once, with Copy and a warning', async () => {
    const { user, backend, copyText } = await setup();
    const form = screen.getByRole('form', { name: 'Create an agent' });
    await user.click(within(form).getByRole('button', { name: 'Create Agent' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Please enter an agent name');
    await user.type(within(form).getByLabelText('Name'), '  Weather Bot ');
    expect(within(form).getByLabelText('Username (optional)')).toHaveAccessibleDescription('Leave empty for @weather_bot.');
    await user.type(within(form).getByLabelText('Description'), ' Forecasts ');
    await user.selectOptions(within(form).getByLabelText('Availability'), 'Dev room only');
    await user.click(within(form).getByRole('button', { name: 'Create Agent' }));

    const notice = await screen.findByRole('region', { name: 'API key for @weather_bot' });
    const key = backend.agentKeys.at(-1) ?? '';
    expect(within(notice).getByLabelText('API key')).toHaveValue(key);
    expect(notice).toHaveTextContent('Copy this key now: it will not be shown again.');
    expect(backend.requests.find((request) => request.route === 'POST /api/agents')?.body).toEqual({ name: 'Weather Bot', description: 'Forecasts', site_wide_available: false });
    await user.click(within(notice).getByRole('button', { name: 'Copy key' }));
    expect(copyText).toHaveBeenCalledWith(key);
    expect(within(notice).getByRole('status')).toHaveTextContent('Copied!');
    expect(await screen.findByRole('article', { name: 'Weather Bot' })).toHaveTextContent('Dev room pending...');
    expect(within(form).getByLabelText('Name')).toHaveValue('');
    expect(JSON.stringify(screen.getByRole('region', { name: 'Your agents' }).textContent)).not.toContain(key);

    await user.click(within(notice).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('region', { name: /API key for/ })).not.toBeInTheDocument();
    expect(document.body.textContent).not.toContain(key);
  });

  it("says 'Failed to copy key' when the clipboard refuses", async () => {
    const { user } = await setup({ copyText: () => Promise.reject(new Error('denied')) });
    await user.type(screen.getByLabelText('Name'), 'Weather');
    await user.click(screen.getByRole('button', { name: 'Create Agent' }));
    const notice = await screen.findByRole('region', { name: 'API key for @weather' });
    await user.click(within(notice).getByRole('button', { name: 'Copy key' }));
    // The refusal arrives after the click's own updates: wait for it rather than race it.
    expect(await within(notice).findByRole('alert')).toHaveTextContent('Failed to copy key');
  });

  it("words a refused creation 'Failed to create agent: …'", async () => {
    const { user, backend } = await setup();
    backend.override('POST /api/agents', () => errorResponse(400, 'Failed to create agent.', { username: { code: 'validation_not_unique', message: 'The username is taken.' } }));
    await user.type(screen.getByLabelText('Name'), 'Echo');
    await user.type(screen.getByLabelText('Username (optional)'), 'echo_bot');
    await user.click(screen.getByRole('button', { name: 'Create Agent' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to create agent: Username: The username is taken');
  });

  it('changes availability, and rolls back with the spec text on failure', async () => {
    const { user, backend, echo } = await setup();
    const select = within(card('Echo Bot')).getByLabelText('Availability');
    await user.selectOptions(select, 'Dev room only');
    await waitFor(() => expect(backend.agents.find((agent) => agent.id === echo.id)?.site_wide_available).toBe(false));
    expect(select).toHaveValue('dev-room');
    backend.override(`PATCH /api/agents/${echo.id}`, () => errorResponse(404, 'Agent not found.'));
    await user.selectOptions(select, 'Site-wide');
    expect(await within(card('Echo Bot')).findByRole('alert')).toHaveTextContent('Failed to update agent: Agent not found.');
    expect(select).toHaveValue('dev-room');
  });

  it('gives an agent a new key after asking, and shows it once', async () => {
    const { user, confirm, backend } = await setup();
    await user.click(within(card('Echo Bot')).getByRole('button', { name: 'New API key' }));
    expect(confirm).toHaveBeenCalledWith(rotateKeyConfirmation('echo_bot'));
    const notice = await screen.findByRole('region', { name: 'API key for @echo_bot' });
    expect(within(notice).getByLabelText('API key')).toHaveValue(backend.agentKeys.at(-1));
    expect(notice).toHaveTextContent('The old key no longer works.');
  });

  it("deletes only after 'Are you sure you want to delete this agent?', and words a failure", async () => {
    let answer = false;
    const { user, backend, echo } = await setup({ confirm: () => answer });
    await user.click(within(card('Echo Bot')).getByRole('button', { name: 'Delete' }));
    expect(backend.agents.some((agent) => agent.id === echo.id)).toBe(true);
    backend.override(`DELETE /api/agents/${echo.id}`, () => errorResponse(500, 'Database is busy.'));
    answer = true;
    await user.click(within(card('Echo Bot')).getByRole('button', { name: 'Delete' }));
    expect(await within(card('Echo Bot')).findByRole('alert')).toHaveTextContent('Failed to delete agent: Database is busy.');
  });

  it('deletes an agent', async () => {
    const { user, confirm } = await setup();
    await user.click(within(card('Todo Keeper')).getByRole('button', { name: 'Delete' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to delete this agent?');
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Todo Keeper' })).not.toBeInTheDocument());
  });

  it("shows 'Failed to load agents.' with Try again", async () => {
    const backend = createFakeBackend({ users: [alice] });
    backend.override('GET /api/agents/mine', () => errorResponse(500, 'Down.'));
    const { user, client } = renderWithConfab(<MyAgentsScreen />, { backend });
    await act(() => client.login('alice', 'wonderland'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load agents.');
    backend.override('GET /api/agents/mine', () => new Response(JSON.stringify({ agents: [] }), { status: 200 }));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('You have no agents yet. Create one above.')).toBeInTheDocument();
  });

  it('shows the quickstart with this server and my names, each command with a Copy button and what it prints', async () => {
    const copied: string[] = [];
    const { client, user } = await setup({ copyText: async (text: string) => void copied.push(text) });
    const quickstart = screen.getByRole('region', { name: 'Quickstart' });
    const steps = quickstartSteps({ serverUrl: client.baseUrl, username: 'alice', agentUsername: 'echo_bot' });
    for (const step of steps) {
      expect(quickstart).toHaveTextContent(step.command);
      expect(quickstart).toHaveTextContent(step.output);
    }
    expect(quickstart).toHaveTextContent('npm install -g http://confab.test/api/packages/confab-cli.tgz');
    expect(quickstart).toHaveTextContent('confab login --server http://confab.test --username alice');
    expect(quickstart).toHaveTextContent('CONFAB_AGENT_KEY=<your key> confab run --agent echo_bot');
    await user.click(within(quickstart).getByRole('button', { name: 'Copy step 2' }));
    expect(copied).toEqual(['confab login --server http://confab.test --username alice']);
    expect(await within(quickstart).findByText('Copied!')).toBeInTheDocument();
  });
});

describe('quickstartSteps', () => {
  it('installs the CLI from this server and creates an agent named after the person when they have none', () => {
    const steps = quickstartSteps({ serverUrl: 'https://confab.example/', username: 'ann' });
    expect(steps.map((step) => step.command)).toEqual([
      'npm install -g https://confab.example/api/packages/confab-cli.tgz',
      'confab login --server https://confab.example --username ann',
      'confab agents create "My Agent" --username ann_bot',
      'confab init my-agent --agent ann_bot && cd my-agent && npm install',
      'confab run --agent ann_bot',
    ]);
    expect(steps.map((step) => step.output)).toEqual([
      'added 1 package',
      'Logged in as ann on https://confab.example',
      'Created @ann_bot (My Agent).',
      'Created an agent project in my-agent',
      'Connected as @ann_bot. Mention it in a chat; Ctrl+C stops.',
    ]);
  });

  it('keeps the agent username valid for any person username', () => {
    expect(quickstartAgentUsername('Ann.Lee-Smith')).toBe('ann_lee_smith_bot');
    expect(quickstartAgentUsername('a'.repeat(40))).toBe(`${'a'.repeat(26)}_bot`);
  });
});
