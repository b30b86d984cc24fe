import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { InitializingScreen } from './InitializingScreen';

describe('InitializingScreen', () => {
  it('announces loading in a status region', () => {
    renderWithConfab(<InitializingScreen />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading Confab...');
  });

  it('takes a custom message', () => {
    renderWithConfab(<InitializingScreen message="Restoring your session..." />);
    expect(screen.getByRole('status')).toHaveTextContent('Restoring your session...');
  });

  it('uses the Spinner from the components context', () => {
    renderWithConfab(<InitializingScreen />, { components: { Spinner: () => <span>custom spinner</span> } });
    expect(screen.getByRole('status')).toHaveTextContent('custom spinner');
  });
});
