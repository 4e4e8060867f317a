// The confirm step of Decline and Cancel: a modal on the native <dialog> asking why (the buyer reads it),
// with the action's button busy while it runs. Escape or "Keep it" leaves the request as it is.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { OrderRequest } from '@tuber/contracts';
import { Button } from '@tuber/ui';
import { useFarmerT } from '../i18n/t.js';
import { InlineSpinner } from '../shared/InlineSpinner.js';
import { REASON_MAX_LENGTH, reasonProblem } from './inbox.js';
import dialogStyles from '../product-list/productList.module.css';
import styles from './inbox.module.css';

export interface ReasonQuestion {
  request: OrderRequest;
  action: 'decline' | 'cancel';
}

interface ReasonDialogProps {
  question: ReasonQuestion | null;
  busy: boolean;
  onConfirm: (reason: string) => void;
  onClose: () => void;
}

export function ReasonDialog({ question, busy, onConfirm, onClose }: ReasonDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const t = useFarmerT();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (question && !element.open) {
      setReason('');
      setProblem(null);
      element.showModal();
    }
    if (!question && element.open) element.close();
  }, [question]);

  const action = question?.action ?? 'decline';

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = reasonProblem(reason);
    setProblem(found);
    if (found) {
      document.getElementById(`${id}-reason`)?.focus();
      return;
    }
    onConfirm(reason.trim());
  }

  return (
    <dialog
      ref={dialog}
      className={dialogStyles.dialog}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
    >
      <form onSubmit={submit} noValidate className={styles.reasonForm}>
        <h2 id={`${id}-title`} className={dialogStyles.dialogTitle}>
          {t(`inbox.dialog.${action}_title`, { number: question?.request.number ?? '' })}
        </h2>
        <p id={`${id}-text`} className={dialogStyles.dialogText}>
          {t(`inbox.dialog.${action}_text`)}
        </p>
        <div className={styles.field}>
          <label htmlFor={`${id}-reason`}>{t('inbox.dialog.reason')}</label>
          <textarea
            id={`${id}-reason`}
            rows={3}
            maxLength={REASON_MAX_LENGTH}
            value={reason}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
            onChange={(event) => {
              setReason(event.target.value);
              setProblem(null);
            }}
          />
          {problem && (
            <span id={`${id}-problem`} className={styles.problem}>
              {problem}
            </span>
          )}
        </div>
        <div className={dialogStyles.dialogActions}>
          <Button type="submit" className={dialogStyles.danger} disabled={busy} aria-busy={busy}>
            {busy && <InlineSpinner />}
            {t(`inbox.dialog.${action}_confirm`)}
          </Button>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {t('inbox.dialog.keep')}
          </Button>
        </div>
      </form>
    </dialog>
  );
}
