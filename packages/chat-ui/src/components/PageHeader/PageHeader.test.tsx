import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { PageHeader } from './PageHeader';

describe('PageHeader', () => {
  it('shows a back button that navigates to its target', async () => {
    const { user, navigate } = renderWithConfab(<PageHeader title="Chat Options" backTo="/chat/c1" backLabel="Back to chat" />);
    expect(screen.getByRole('heading', { level: 1, name: 'Chat Options' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Open sidebar' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back to chat' }));
    expect(navigate).toHaveBeenCalledWith('/chat/c1');
  });

  it('shows the sidebar menu toggle without a back target', async () => {
    const { user, client } = renderWithConfab(<PageHeader title="Drops" />);
    await user.click(screen.getByRole('button', { name: 'Open sidebar' }));
    expect(client.store.getState().sidebarOpen).toBe(true);
    expect(screen.getByRole('button', { name: 'Close sidebar' })).toHaveAttribute('aria-expanded', 'true');
  });
});
