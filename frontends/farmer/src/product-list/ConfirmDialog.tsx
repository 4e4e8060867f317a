// A modal yes/no question on the native <dialog> (focus kept inside, Escape cancels).
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from '@tuber/ui';
import { InlineSpinner } from '../shared/InlineSpinner.js';
import styles from './productList.module.css';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  busy?: boolean;
  /** `alertdialog` (default) for a question that interrupts; `dialog` for one the person asked for. */
  role?: 'alertdialog' | 'dialog';
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({ open, title, children, confirmLabel, cancelLabel, busy, role = 'alertdialog', onConfirm, onCancel }: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      className={styles.dialog}
      role={role}
      aria-labelledby={titleId}
      aria-describedby={textId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <h2 id={titleId} className={styles.dialogTitle}>
        {title}
      </h2>
      <p id={textId} className={styles.dialogText}>
        {children}
      </p>
      <div className={styles.dialogActions}>
        <Button className={styles.danger} onClick={onConfirm} disabled={busy} aria-busy={busy}>
          {busy && <InlineSpinner />}
          {confirmLabel}
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          {cancelLabel}
        </Button>
      </div>
    </dialog>
  );
}
