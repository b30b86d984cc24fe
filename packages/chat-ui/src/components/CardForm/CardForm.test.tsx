import { useState } from 'react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useCreateSubmission } from '../../internal/useCreateSubmission';
import { FormField } from '../FormField/FormField';
import { CardForm } from './CardForm';

describe('CardForm', () => {
  it('is a form named by its heading, described by its error, with the submit button last', () => {
    const { rerender } = render(
      <CardForm title="Create an agent" submitLabel="Create Agent" busyLabel="Creating..." busy={false} error={null} onSubmit={() => {}}>
        <FormField label="Name" name="name" />
      </CardForm>,
    );
    const form = screen.getByRole('form', { name: 'Create an agent' });
    expect(screen.getByRole('heading', { level: 2, name: 'Create an agent' })).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toBeInTheDocument();
    expect(form).not.toHaveAccessibleDescription();
    expect(screen.getByRole('button', { name: 'Create Agent' })).toBeEnabled();

    rerender(
      <CardForm title="Create an agent" submitLabel="Create Agent" busyLabel="Creating..." busy error="Please enter an agent name" onSubmit={() => {}}>
        <FormField label="Name" name="name" />
      </CardForm>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter an agent name');
    expect(form).toHaveAccessibleDescription('Please enter an agent name');
    const button = screen.getByRole('button', { name: 'Creating...' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
  });
});

/** A one-field create form over useCreateSubmission, as the agent forms use it. */
function NameForm({ create, onCreated }: { create: (name: string) => Promise<string>; onCreated: (result: string) => void }) {
  const [name, setName] = useState('');
  const { error, busy, submit } = useCreateSubmission({
    validate: () => (name.trim() === '' ? 'Please enter a name' : null),
    create: () => create(name),
    errorMessage: (failure) => `Failed to create: ${(failure as Error).message}`,
    onCreated: (result) => {
      setName('');
      onCreated(result);
    },
  });
  return (
    <CardForm title="Create" submitLabel="Create" busyLabel="Creating..." busy={busy} error={error} onSubmit={submit}>
      <FormField label="Name" name="name" value={name} disabled={busy} onChange={(event) => setName(event.target.value)} />
    </CardForm>
  );
}

describe('useCreateSubmission', () => {
  it('shows the validation text and sends nothing', async () => {
    const user = userEvent.setup();
    const create = vi.fn(async () => 'created');
    render(<NameForm create={create} onCreated={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a name');
    expect(create).not.toHaveBeenCalled();
  });

  it('is busy while creating, ignores a second submit, then hands on the result and frees the form', async () => {
    const user = userEvent.setup();
    let finish: (value: string) => void = () => {};
    const create = vi.fn(() => new Promise<string>((resolve) => (finish = resolve)));
    const onCreated = vi.fn();
    render(<NameForm create={create} onCreated={onCreated} />);
    await user.type(screen.getByLabelText('Name'), 'Weather');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByRole('button', { name: 'Creating...' })).toBeDisabled();
    expect(screen.getByLabelText('Name')).toBeDisabled();
    fireEvent.submit(screen.getByRole('form', { name: 'Create' }));
    expect(create).toHaveBeenCalledTimes(1);
    finish('weather');
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith('weather'));
    expect(screen.getByRole('button', { name: 'Create' })).toBeEnabled();
    expect(screen.getByLabelText('Name')).toHaveValue('');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the failure in its words and keeps the fields', async () => {
    const user = userEvent.setup();
    render(<NameForm create={() => Promise.reject(new Error('That name is taken.'))} onCreated={() => {}} />);
    await user.type(screen.getByLabelText('Name'), 'Echo');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to create: That name is taken.');
    expect(screen.getByLabelText('Name')).toHaveValue('Echo');
    expect(screen.getByRole('button', { name: 'Create' })).toBeEnabled();
  });
});
