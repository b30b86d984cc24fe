import { screen, waitFor as waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend, errorResponse, json, userRecord } from '@confab/client/testing/fakeBackend';
import { CompleteSignupPage } from './CompleteSignupPage';

const temp = { id: 'tempuser000001', username: 'user_abcdefghij', email: 'user_abcdefghij@temporary.confab.invalid', name: '', password: 'temp-pass' };

function setup(props: { userId?: string | null; chatId?: string | null; tempPassword?: string | null }, fail = false) {
  const backend = createFakeBackend({ users: [temp] });
  backend.override(`PATCH /api/collections/users/records/${temp.id}`, (_request, body) => {
    if (fail) return errorResponse(400, 'Failed to update record.');
    const user = backend.users[0]!;
    Object.assign(user, { username: body['username'], name: body['name'] });
    return json(200, userRecord(user));
  });
  return renderWithConfab(<CompleteSignupPage {...props} />, { backend });
}

const link = { userId: temp.id, chatId: 'chat1', tempPassword: 'temp-pass' };

describe('CompleteSignupPage', () => {
  it.each([
    [{}],
    [{ ...link, userId: '' }],
    [{ ...link, chatId: null }],
    [{ ...link, tempPassword: '' }],
  ])('rejects an incomplete link %j', (props) => {
    setup(props);
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid signup link. Please request a new invitation.');
    expect(screen.queryByLabelText('Username')).not.toBeInTheDocument();
  });

  it('needs a username', async () => {
    const { user } = setup(link);
    await user.click(screen.getByRole('button', { name: 'Complete Signup' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a username');
  });

  it('names the account, signs in with the temporary password and opens the chat', async () => {
    const { user, backend, navigate, client } = setup(link);
    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.click(screen.getByRole('button', { name: 'Complete Signup' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/chat/chat1'));
    expect(backend.requests.find((request) => request.route.startsWith('PATCH'))?.body).toEqual({ username: 'ada', name: 'ada' });
    expect(client.store.getState().user?.username).toBe('ada');
  });

  it('shows the server message on failure', async () => {
    const { user } = setup(link, true);
    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.click(screen.getByRole('button', { name: 'Complete Signup' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to update record.');
  });
});
