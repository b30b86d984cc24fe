import { useCallback, useState } from 'react';
import { fileDisplayName, messages, toConfabError, type ChatFile } from '@confab/client';
import { useConfabClient } from '../../provider/hooks';

/** How a bulk delete went: cancelled at the confirmation, or how many files went away. */
export type BulkDeleteOutcome = 'cancelled' | 'all' | 'partial' | 'none';

export interface FileDeletion {
  busy: boolean;
  /** The outcome to show (the texts of docs/PRODUCT.md §8), or null. */
  error: string | null;
  clearError: () => void;
  /** Asks for confirmation, then deletes one file. */
  deleteOne: (file: ChatFile) => Promise<void>;
  /** Asks for confirmation, then deletes the files. */
  deleteMany: (files: ChatFile[]) => Promise<BulkDeleteOutcome>;
}

/**
 * docs/PRODUCT.md §5 File deletion (after a confirmation) and §8 Files texts: a 404 is the
 * permission text, other failures 'Failed to delete file'; in bulk, a partial or total failure has
 * its own text. `onDeleted` runs whenever at least one file went away.
 */
export function useFileDeletion(onDeleted: () => void): FileDeletion {
  const client = useConfabClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const deleteOne = useCallback(
    async (file: ChatFile) => {
      if (!window.confirm(messages.deleteFileConfirmation(fileDisplayName(file)))) return;
      setBusy(true);
      setError(null);
      try {
        await client.files.remove(file.id);
        onDeleted();
      } catch (failure) {
        setError(toConfabError(failure).status === 404 ? messages.deleteFileNotPermitted : messages.deleteFileFailed);
      } finally {
        setBusy(false);
      }
    },
    [client, onDeleted],
  );

  const deleteMany = useCallback(
    async (files: ChatFile[]): Promise<BulkDeleteOutcome> => {
      if (files.length === 0 || !window.confirm(messages.deleteFilesConfirmation(files.length))) return 'cancelled';
      setBusy(true);
      setError(null);
      const { deleted, failed } = await client.files.removeMany(files.map((file) => file.id));
      setBusy(false);
      if (deleted.length > 0) onDeleted();
      if (failed.length === 0) return 'all';
      if (deleted.length === 0) {
        setError(messages.deleteFilesFailed);
        return 'none';
      }
      setError(messages.bulkDeletePartial(deleted.length, failed.length));
      return 'partial';
    },
    [client, onDeleted],
  );

  const clearError = useCallback(() => setError(null), []);
  return { busy, error, clearError, deleteOne, deleteMany };
}
