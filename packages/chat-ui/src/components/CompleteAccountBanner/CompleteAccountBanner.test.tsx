import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { UserRecord } from '@confab/client';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { BANNER_DISMISSED_KEY, CompleteAccountBanner } from './CompleteAccountBanner';

const temporary: UserRecord = {
  id: 'tempuser000001',
  username: 'user_abcdefghij',
  name: 'Ada',
  email: 'user_abcdefghij@temporary.confab.invalid',
  type: 'user',
  soft_registered: true,
  signup_completed: false,
  created: '',
  updated: '',
};

function setup(user: UserRecord | null) {
  const result = renderWithConfab(<CompleteAccountBanner />);
  act(() => result.client.store.setState({ user, isAuthenticated: user !== null }));
  return result;
}

afterEach(() => sessionStorage.clear());

describe('CompleteAccountBanner', () => {
  it('shows for a soft-registered user without completed signup and links to /complete-account', async () => {
    const { user, navigate } = setup(temporary);
    expect(screen.getByRole('region', { name: 'Complete Your Account' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Complete Signup' }));
    expect(navigate).toHaveBeenCalledWith('/complete-account');
  });

  it.each([
    ['full user', { ...temporary, soft_registered: false }],
    ['completed signup', { ...temporary, signup_completed: true }],
    ['signed out', null],
  ])('is hidden for a %s', (_case, user) => {
    setup(user);
    expect(screen.queryByRole('region', { name: 'Complete Your Account' })).not.toBeInTheDocument();
  });

  it.each(['Later', 'Dismiss'])('%s hides it for the browser session', async (name) => {
    const { user, unmount } = setup(temporary);
    await user.click(screen.getByRole('button', { name }));
    expect(screen.queryByRole('region', { name: 'Complete Your Account' })).not.toBeInTheDocument();
    expect(sessionStorage.getItem(BANNER_DISMISSED_KEY)).toBe('true');
    unmount();
    setup(temporary);
    expect(screen.queryByRole('region', { name: 'Complete Your Account' })).not.toBeInTheDocument();
  });
});
