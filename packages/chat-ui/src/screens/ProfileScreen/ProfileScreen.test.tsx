import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend, errorResponse, json, userRecord, type FakeBackend } from '@confab/client/testing/fakeBackend';
import { ProfileScreen } from './ProfileScreen';

const alice = { username: 'alice', email: 'alice@example.com', name: 'Alice', password: 'wonderland' };

function answerUpdates(backend: FakeBackend) {
  const me = backend.users[0]!;
  backend.override(`PATCH /api/collections/users/records/${me.id}`, (_request, body) => {
    if (body['username'] === 'taken') return errorResponse(400, 'Failed to update record.', { username: { code: 'validation_not_unique', message: 'Value must be unique.' } });
    if (typeof body['username'] === 'string') me.username = body['username'];
    return json(200, { ...userRecord(me), openai_api_key_set: 'openai_api_key' in body, openai_api_key_hint: 'sk-…1234', gemini_api_key_set: 'gemini_api_key' in body });
  });
}

async function setup(configure?: (backend: FakeBackend) => void) {
  const backend = createFakeBackend({ users: [alice] });
  answerUpdates(backend);
  configure?.(backend);
  const result = renderWithConfab(<ProfileScreen />, { backend });
  await act(() => result.client.login('alice', 'wonderland'));
  return result;
}

const accountForm = () => screen.getByRole('form', { name: 'Account' });
const keysForm = () => screen.getByRole('form', { name: 'API Keys' });

describe('ProfileScreen account', () => {
  it('shows the username, the read-only e-mail and the personal inbox address', async () => {
    await setup();
    expect(screen.getByRole('heading', { name: 'My Profile', level: 1 })).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toHaveValue('alice');
    expect(screen.getByLabelText('Email')).toHaveValue('alice@example.com');
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
    expect(await screen.findByDisplayValue('alice@confab.test')).toBe(screen.getByLabelText('Personal inbox'));
  });

  it("uses the server's mail domain for the personal inbox", async () => {
    await setup((backend) => backend.override('GET /api/config', () => json(200, { public_domain: 'app.example:8443', mail_domain: 'mail.example' })));
    expect(await screen.findByDisplayValue('alice@mail.example')).toBe(screen.getByLabelText('Personal inbox'));
  });

  it('falls back to the public domain without its port when the server names no mail domain', async () => {
    await setup((backend) => backend.override('GET /api/config', () => json(200, { public_domain: 'chat.example:8090' })));
    expect(await screen.findByDisplayValue('alice@chat.example')).toBe(screen.getByLabelText('Personal inbox'));
  });

  it("says 'No changes to save.' for the same username", async () => {
    const { user, backend } = await setup();
    await user.click(within(accountForm()).getByRole('button', { name: 'Save Username' }));
    expect(screen.getByRole('status')).toHaveTextContent('No changes to save.');
    expect(backend.requests.some((request) => request.route.startsWith('PATCH'))).toBe(false);
  });

  it('updates the username', async () => {
    const { user, client } = await setup();
    await user.clear(screen.getByLabelText('Username'));
    await user.type(screen.getByLabelText('Username'), 'alicia');
    await user.click(screen.getByRole('button', { name: 'Save Username' }));
    expect(await within(accountForm()).findByRole('status')).toHaveTextContent('Username updated successfully!');
    expect(client.store.getState().user?.username).toBe('alicia');
    expect(await screen.findByDisplayValue('alicia@confab.test')).toBeInTheDocument();
  });

  it('shows a server field error', async () => {
    const { user } = await setup();
    await user.clear(screen.getByLabelText('Username'));
    await user.type(screen.getByLabelText('Username'), 'taken');
    await user.click(screen.getByRole('button', { name: 'Save Username' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Username: Value must be unique.');
  });
});

describe('ProfileScreen API keys', () => {
  it('needs at least one key', async () => {
    const { user } = await setup();
    expect(screen.getByLabelText('OpenAI API key')).toHaveAttribute('type', 'password');
    expect(screen.getByLabelText('OpenAI API key')).toHaveAccessibleDescription('Not set');
    await user.click(screen.getByRole('button', { name: 'Save API Keys' }));
    expect(within(keysForm()).getByRole('alert')).toHaveTextContent('Please enter at least one API key.');
  });

  it('saves the keys given and shows them as set, masked', async () => {
    const { user, backend } = await setup();
    await user.type(screen.getByLabelText('OpenAI API key'), 'sk-secret-1234');
    await user.click(screen.getByRole('button', { name: 'Save API Keys' }));
    expect(await within(keysForm()).findByRole('status')).toHaveTextContent('API keys saved successfully! They will be used for AI agent requests.');
    expect(backend.requests.find((request) => request.route.startsWith('PATCH'))?.body).toEqual({ openai_api_key: 'sk-secret-1234' });
    expect(screen.getByLabelText('OpenAI API key')).toHaveValue('');
    expect(screen.getByLabelText('OpenAI API key')).toHaveAccessibleDescription('Set (sk-…1234)');
    expect(screen.getByLabelText('Gemini API key')).toHaveAccessibleDescription('Not set');
    expect(screen.queryByText(/sk-secret-1234/)).not.toBeInTheDocument();
  });
});

describe('ProfileScreen AI usage', () => {
  it("shows the total of AI tokens the person's requests used, following their record", async () => {
    const { user } = await setup((backend) => {
      const me = backend.users[0]!;
      backend.override(`PATCH /api/collections/users/records/${me.id}`, () => json(200, { ...userRecord(me), openai_api_key_set: true, ai_tokens_used: 1234 }));
    });
    expect(screen.getByText('AI tokens used: 0')).toBeInTheDocument();
    await user.type(screen.getByLabelText('OpenAI API key'), 'sk-test-0123456789abcdef');
    await user.click(within(keysForm()).getByRole('button', { name: 'Save API Keys' }));
    expect(await screen.findByText('AI tokens used: 1,234')).toBeInTheDocument();
  });
});
