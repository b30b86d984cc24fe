import { Component, type ReactNode } from 'react';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithConfab } from '../../test/renderWithConfab';
import { LazyDialog, LazyMessagePart, lazyPart } from './lazyParts';

function Hello({ name }: { name: string }) {
  return <div role="dialog" aria-label="Hello">Hello {name}</div>;
}

/** A part whose code arrives when `arrive` is called (or fails the first `failures` times). */
function controlledPart(failures = 0) {
  const load = vi.fn(() => (load.mock.calls.length <= failures ? Promise.reject(new Error('chunk failed')) : Promise.resolve({ Hello })));
  return { part: lazyPart(load, (module) => module.Hello), load };
}

describe('lazy parts', () => {
  it('a dialog part shows the Spinner and its loading text as a status, then the dialog', async () => {
    const { part, load } = controlledPart();
    const onClose = vi.fn();
    renderWithConfab(
      <LazyDialog loadingLabel="Loading hello..." failedLabel="Hello could not be loaded." onClose={onClose}>
        <part.Component name="Alice" />
      </LazyDialog>,
    );
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('Loading hello...');
    expect(status.querySelector('.cf-spinner')).not.toBeNull();
    expect(await screen.findByRole('dialog', { name: 'Hello' })).toHaveTextContent('Hello Alice');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(load).toHaveBeenCalledOnce();
  });

  it('preloading loads the code once, so the part renders without a fallback afterwards', async () => {
    const { part, load } = controlledPart();
    part.preload();
    part.preload();
    expect(load).toHaveBeenCalledOnce();
    // The import settles (promptly here; a download in a browser).
    await new Promise((resolve) => setTimeout(resolve, 0));
    renderWithConfab(
      <LazyMessagePart className="cf-chart" minHeight={240} loadingLabel="Loading chart..." failedLabel="This chart could not be shown.">
        <part.Component name="Bob" />
      </LazyMessagePart>,
    );
    // The code is here: the part renders at once, with no loading status in between.
    expect(screen.getByText('Hello Bob')).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(load).toHaveBeenCalledOnce();
  });

  it('a message part holds its place with a box of the given height while loading', () => {
    const { part } = controlledPart();
    const { container } = renderWithConfab(
      <LazyMessagePart className="cf-chart" minHeight={240} loadingLabel="Loading chart..." failedLabel="This chart could not be shown.">
        <part.Component name="Bob" />
      </LazyMessagePart>,
    );
    expect(container.querySelector('.cf-chart')).toHaveStyle({ minHeight: '240px' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading chart...');
  });

  it('a failed load shows an alert with Try again, which loads again; Close closes', async () => {
    // React reports the caught error on the console; the alert is what the user sees.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { part, load } = controlledPart(1);
    const onClose = vi.fn();
    const { user } = renderWithConfab(
      <LazyDialog loadingLabel="Loading hello..." failedLabel="Hello could not be loaded." onClose={onClose}>
        <part.Component name="Alice" />
      </LazyDialog>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Hello could not be loaded.');
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledOnce();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('dialog', { name: 'Hello' })).toHaveTextContent('Hello Alice');
    expect(load).toHaveBeenCalledTimes(2);
    vi.mocked(console.error).mockRestore();
  });

  it('a message part that fails to load says so with Retry', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { part } = controlledPart(1);
    const { user } = renderWithConfab(
      <LazyMessagePart className="cf-chart" minHeight={240} loadingLabel="Loading chart..." failedLabel="This chart could not be shown.">
        <part.Component name="Bob" />
      </LazyMessagePart>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('This chart could not be shown.');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Hello Bob')).toBeInTheDocument();
    vi.mocked(console.error).mockRestore();
  });

  it('Escape closes a dialog part while it loads', async () => {
    const { part } = controlledPart();
    const onClose = vi.fn();
    const { user } = renderWithConfab(
      <LazyDialog loadingLabel="Loading hello..." failedLabel="Hello could not be loaded." onClose={onClose}>
        <part.Component name="Alice" />
      </LazyDialog>,
    );
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalled();
  });

  it('passes on any other error (a bug in the part is not a failed load)', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    function Broken(): ReactNode {
      throw new Error('a bug');
    }
    renderWithConfab(
      <Outer>
        <LazyMessagePart className="cf-chart" minHeight={240} loadingLabel="Loading chart..." failedLabel="This chart could not be shown.">
          <Broken />
        </LazyMessagePart>
      </Outer>,
    );
    expect(screen.getByText('outer caught: a bug')).toBeInTheDocument();
    expect(screen.queryByText('This chart could not be shown.')).not.toBeInTheDocument();
    vi.mocked(console.error).mockRestore();
  });
});

class Outer extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? <p>outer caught: {this.state.error.message}</p> : this.props.children;
  }
}
