import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend, errorResponse, json } from '@confab/client/testing/fakeBackend';
import { ConfabAgentsScreen } from './ConfabAgentsScreen';

const admin = { id: 'user_admin_0001', username: 'root', email: 'root@example.com', name: 'Root', password: 'wonderland', is_admin: true };
const bob = { id: 'user_bob_000001', username: 'bob', email: 'bob@example.com', name: 'Bob', password: 'builder123' };

async function setup(options: { as?: 'admin' | 'bob'; confirm?: () => boolean; configure?: (backend: ReturnType<typeof createFakeBackend>) => void } = {}) {
  const backend = createFakeBackend({ users: [admin, bob] });
  backend.addAgent({ username: 'deep', name: 'Deep Research', agent_type: 'confab-agent', description: 'Researches.' });
  backend.addAgent({ username: 'echo_bot', name: 'Echo Bot', agent_type: 'developer-agent' });
  options.configure?.(backend);
  const confirm = vi.fn(options.confirm ?? (() => true));
  const result = renderWithConfab(<ConfabAgentsScreen confirm={confirm} />, { backend });
  await act(() => (options.as === 'bob' ? result.client.login('bob', 'builder123') : result.client.login('root', 'wonderland')));
  return { ...result, confirm };
}

const hostedRequests = (backend: ReturnType<typeof createFakeBackend>) => backend.requests.filter((request) => request.route.includes('/api/admin/'));

describe('ConfabAgentsScreen', () => {
  it('tells a non-admin that the page is for admins, without asking the server', async () => {
    const { backend } = await setup({ as: 'bob' });
    expect(screen.getByRole('heading', { level: 1, name: 'Confab Agents Management' })).toBeInTheDocument();
    const notice = screen.getByRole('region', { name: 'Admins only' });
    expect(notice).toHaveTextContent('This page is for admins.');
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    expect(hostedRequests(backend)).toHaveLength(0);
  });

  it('shows the admins-only notice when the server answers 403', async () => {
    await setup({ configure: (backend) => backend.override('GET /api/admin/confab-agents', () => errorResponse(403, 'Only admins can manage Confab agents.')) });
    expect(await screen.findByRole('region', { name: 'Admins only' })).toHaveTextContent('This page is for admins.');
  });

  it('lists the hosted agents', async () => {
    await setup();
    const list = screen.getByRole('region', { name: 'Hosted agents' });
    const deep = await within(list).findByRole('article', { name: 'Deep Research' });
    expect(deep).toHaveTextContent('@deep');
    expect(deep).toHaveTextContent('Active');
    expect(within(list).queryByRole('article', { name: 'Echo Bot' })).not.toBeInTheDocument();
  });

  it("shows 'Failed to load agents.' with Try again", async () => {
    const { user, backend } = await setup({ configure: (backend) => backend.override('GET /api/admin/confab-agents', () => errorResponse(500, 'Down.')) });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load agents.');
    backend.override('GET /api/admin/confab-agents', () => json(200, { agents: [] }));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No hosted agents yet.')).toBeInTheDocument();
  });

  it('creates a hosted agent (display name required) with the spec payload', async () => {
    const { user, backend } = await setup();
    await screen.findByRole('article', { name: 'Deep Research' });
    const form = screen.getByRole('form', { name: 'Create a hosted agent' });
    await user.click(within(form).getByRole('button', { name: 'Create Hosted Agent' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Please enter a display name');
    await user.type(within(form).getByLabelText('Display name'), ' Summariser ');
    await user.type(within(form).getByLabelText('Description'), 'Sums up long threads.');
    await user.click(within(form).getByRole('checkbox', { name: 'Available site-wide' }));
    await user.click(within(form).getByRole('button', { name: 'Create Hosted Agent' }));
    expect(await screen.findByRole('article', { name: 'Summariser' })).toHaveTextContent('Dev room only');
    expect(backend.requests.find((request) => request.route === 'POST /api/admin/confab-agents')?.body).toEqual({
      name: 'Summariser',
      description: 'Sums up long threads.',
      type: 'confab-agent',
      site_wide_available: false,
    });
  });

  it('takes a prompt of several lines, then confirms the new persona and lists it', async () => {
    const { user, backend } = await setup();
    await screen.findByRole('article', { name: 'Deep Research' });
    const form = screen.getByRole('form', { name: 'Create a hosted agent' });
    const prompt = within(form).getByLabelText('Description');
    expect(prompt.tagName).toBe('TEXTAREA');
    expect(prompt).toHaveAccessibleDescription(/The agent's prompt/);
    await user.type(within(form).getByLabelText('Display name'), 'Editor');
    // Enter starts a new line of the prompt; it does not submit the form.
    await user.type(prompt, 'You are a careful editor.{Enter}Answer in five sentences at most.');
    expect(backend.requests.some((request) => request.route === 'POST /api/admin/confab-agents')).toBe(false);
    await user.click(within(form).getByRole('button', { name: 'Create Hosted Agent' }));
    const confirmation = await screen.findByText('Created Editor. People mention it as @editor in any chat that allows Confab agents; it is in the list below.');
    expect(confirmation.closest('[role="status"]')).not.toBeNull();
    const card = within(screen.getByRole('region', { name: 'Hosted agents' })).getByRole('article', { name: 'Editor' });
    expect(card).toHaveTextContent('@editor');
    expect(card.querySelector('.cf-agent-card__description')?.textContent).toBe('You are a careful editor.\nAnswer in five sentences at most.');
    expect(backend.requests.find((request) => request.route === 'POST /api/admin/confab-agents')?.body).toMatchObject({
      description: 'You are a careful editor.\nAnswer in five sentences at most.',
    });
    // The form is ready for the next one.
    expect(within(form).getByLabelText('Display name')).toHaveValue('');
    expect(prompt).toHaveValue('');
  });

  it('lists a persona created while the list could not load, by loading it again', async () => {
    const { user, backend } = await setup({ configure: (backend) => backend.override('GET /api/admin/confab-agents', () => errorResponse(500, 'Down.')) });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load agents.');
    backend.override('GET /api/admin/confab-agents', () => json(200, { agents: backend.agents.filter((agent) => agent.agent_type === 'confab-agent') }));
    await user.type(screen.getByLabelText('Display name'), 'Editor');
    await user.click(screen.getByRole('button', { name: 'Create Hosted Agent' }));
    expect(await screen.findByRole('article', { name: 'Editor' })).toBeInTheDocument();
    expect(screen.getByText(/^Created Editor\./)).toBeInTheDocument();
  });

  it("words a refused creation 'Failed to create hosted agent: …'", async () => {
    const { user } = await setup({ configure: (backend) => backend.override('POST /api/admin/confab-agents', () => errorResponse(400, 'That name is taken.')) });
    await user.type(screen.getByLabelText('Display name'), 'Deep');
    await user.click(screen.getByRole('button', { name: 'Create Hosted Agent' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to create hosted agent: That name is taken.');
  });

  it('deletes after the confirmation, and words a failure', async () => {
    let answer = false;
    const { user, backend, confirm } = await setup({ confirm: () => answer });
    const deep = await screen.findByRole('article', { name: 'Deep Research' });
    await user.click(within(deep).getByRole('button', { name: 'Delete' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to delete this agent?');
    expect(backend.agents.some((agent) => agent.username === 'deep')).toBe(true);
    answer = true;
    const id = backend.agents.find((agent) => agent.username === 'deep')?.id ?? '';
    backend.override(`DELETE /api/admin/confab-agents/${id}`, () => errorResponse(500, 'Busy.'));
    await user.click(within(deep).getByRole('button', { name: 'Delete' }));
    expect(await within(deep).findByRole('alert')).toHaveTextContent('Failed to delete hosted agent: Busy.');
    backend.override(`DELETE /api/admin/confab-agents/${id}`, () => new Response(null, { status: 204 }));
    await user.click(within(deep).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Deep Research' })).not.toBeInTheDocument());
  });
});
