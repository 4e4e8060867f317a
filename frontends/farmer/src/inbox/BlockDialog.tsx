// The confirm step of "Block this buyer" (issue 24): the product list's modal question (ConfirmDialog),
// saying what a block does (no new requests from them; the ones already sent stay; unblocking is
// possible) before anything is sent.
import { useFarmerT } from '../i18n/t.js';
import { ConfirmDialog } from '../product-list/ConfirmDialog.js';

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
  const t = useFarmerT();
  return (
    <ConfirmDialog
      open={question !== null}
      role="dialog"
      title={t('blocked.dialog_title', { buyer: question?.buyer_name ?? '' })}
      confirmLabel={t('blocked.dialog_confirm')}
      cancelLabel={t('blocked.dialog_keep')}
      busy={busy}
      onConfirm={() => question && onConfirm(question)}
      onCancel={onClose}
    >
      {t('blocked.dialog_text')}
    </ConfirmDialog>
  );
}
