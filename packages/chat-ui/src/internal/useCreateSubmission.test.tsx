import type { FormEvent } from 'react';
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useCreateSubmission } from './useCreateSubmission';

const submitEvent = () => ({ preventDefault: () => {} }) as FormEvent<HTMLFormElement>;

describe('useCreateSubmission with staysBusyAfterSuccess', () => {
  it('stays busy after a success and ignores a further submit; a failure still frees the form', async () => {
    const create = vi.fn(async () => 'created');
    const onCreated = vi.fn();
    const { result } = renderHook(() =>
      useCreateSubmission({ validate: () => null, create, errorMessage: () => 'Failed', onCreated, staysBusyAfterSuccess: true }),
    );
    await act(() => result.current.submit(submitEvent()));
    expect(onCreated).toHaveBeenCalledWith('created');
    expect(result.current.busy).toBe(true);
    await act(() => result.current.submit(submitEvent()));
    expect(create).toHaveBeenCalledTimes(1);

    const failing = renderHook(() =>
      useCreateSubmission({ validate: () => null, create: () => Promise.reject(new Error('no')), errorMessage: () => 'Failed', onCreated, staysBusyAfterSuccess: true }),
    );
    await act(() => failing.result.current.submit(submitEvent()));
    expect(failing.result.current).toMatchObject({ busy: false, error: 'Failed' });
  });
});
