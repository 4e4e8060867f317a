// The confirm step of "Block this buyer" (issue 24): a modal on the native <dialog> saying what a block does
// (no new requests from them; the ones already sent stay; unblocking is possible) before anything is sent.
import { useEffect, useId, useRef } from 'react';
import { Button } from '@tuber/ui';
import { useFarmerT } from '../i18n/t.js';
import { InlineSpinner } from '../shared/InlineSpinner.js';
import dialogStyles from '../product-list/productList.module.css';

export interface BlockQuestion {
  buyer_id: string;
  buyer_name: string;
}

interface BlockDialogProps {
  question: BlockQuestion | null;
  busy: boolean;
  onConfirm: (buyer: BlockQuestion) => void;
  onClose: () => void;
}

export function BlockDialog({ question, busy, onConfirm, onClose }: BlockDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const t = useFarmerT();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (question && !element.open) element.showModal();
    if (!question && element.open) element.close();
  }, [question]);

  return (
    <dialog
      ref={dialog}
      className={dialogStyles.dialog}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      data-testid="block-dialog"
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
    >
      <h2 id={`${id}-title`} className={dialogStyles.dialogTitle}>
        {t('blocked.dialog_title', { buyer: question?.buyer_name ?? '' })}
      </h2>
      <p id={`${id}-text`} className={dialogStyles.dialogText}>
        {t('blocked.dialog_text')}
      </p>
      <div className={dialogStyles.dialogActions}>
        <Button className={dialogStyles.danger} disabled={busy} aria-busy={busy} onClick={() => question && onConfirm(question)}>
          {busy && <InlineSpinner />}
          {t('blocked.dialog_confirm')}
        </Button>
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          {t('blocked.dialog_keep')}
        </Button>
      </div>
    </dialog>
  );
}
