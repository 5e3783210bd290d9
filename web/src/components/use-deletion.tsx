import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from './confirm-dialog';
import { toast } from './snackbar';

/** What deletes a record by its id (a `useMutation`). */
export interface Removal {
  mutateAsync: (id: string) => Promise<unknown>;
  isPending: boolean;
}

interface DeletionTexts<R> {
  /** The confirmation's title. */
  title: string;
  /** Its question, of the record asked about (`null` while the dialog closes). */
  content: (record: R | null) => string;
  confirmLabel: string;
  /** The toast once deleted. */
  deleted: string;
  /** The toast when the deletion failed, given its error. */
  failed: (error: unknown) => string;
  /** Once deleted, before the toast. */
  onDeleted?: (record: R) => void;
}

/**
 * A deletion asked for first: `ask(record)` opens the confirmation (`dialog`, to render), which
 * deletes it, tells how that went in a toast and closes.
 */
export function useDeletion<R extends { id: string }>(remove: Removal, texts: DeletionTexts<R>): { ask: (record: R) => void; dialog: ReactNode } {
  const [deleting, setDeleting] = useState<R | null>(null);

  const runDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      texts.onDeleted?.(deleting);
      toast.success(texts.deleted);
    } catch (error) {
      toast.error(texts.failed(error));
    } finally {
      setDeleting(null);
    }
  };

  const dialog = (
    <ConfirmDialog
      open={deleting !== null}
      title={texts.title}
      content={texts.content(deleting)}
      confirmLabel={texts.confirmLabel}
      loading={remove.isPending}
      onConfirm={() => void runDelete()}
      onClose={() => setDeleting(null)}
    />
  );
  return { ask: setDeleting, dialog };
}
