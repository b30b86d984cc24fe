import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { Link } from './Link';

describe('Link', () => {
  it('is a real link whose click calls navigate', async () => {
    const { user, navigate } = renderWithConfab(<Link to="/register">Create an account</Link>);
    const link = screen.getByRole('link', { name: 'Create an account' });
    expect(link).toHaveAttribute('href', '/register');
    await user.click(link);
    expect(navigate).toHaveBeenCalledWith('/register');
  });

  it('passes replace through', async () => {
    const { user, navigate } = renderWithConfab(
      <Link to="/login" replace>
        Login
      </Link>,
    );
    await user.click(screen.getByRole('link', { name: 'Login' }));
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
  });

  it.each([{ metaKey: true }, { ctrlKey: true }, { shiftKey: true }, { button: 1 }])(
    'leaves %o clicks to the browser',
    (modifier) => {
      // The outer handler stops jsdom from attempting the real navigation the browser would do.
      const { navigate } = renderWithConfab(
        <div onClick={(event) => event.preventDefault()}>
          <Link to="/login">Login</Link>
        </div>,
      );
      fireEvent.click(screen.getByRole('link', { name: 'Login' }), modifier);
      expect(navigate).not.toHaveBeenCalled();
    },
  );

  it('leaves links with another target to the browser', () => {
    const { navigate } = renderWithConfab(
      <div onClick={(event) => event.preventDefault()}>
        <Link to="/live/abc/" target="_blank" rel="noreferrer">
          Live site
        </Link>
      </div>,
    );
    fireEvent.click(screen.getByRole('link', { name: 'Live site' }));
    expect(navigate).not.toHaveBeenCalled();
  });
});
