// Accepting a request: one quantity per line, prefilled with what the buyer asked (never above it), and a
// reason the buyer reads, required as soon as any quantity is lowered.
import { useId, useState, type FormEvent } from 'react';
import type { AcceptOrder, OrderRequest } from '@tuber/contracts';
import { Button } from '@tuber/ui';
import { useFarmerT } from '../i18n/t.js';
import { unitPlural } from '../i18n/words.js';
import { InlineSpinner } from '../shared/InlineSpinner.js';
import { acceptBody, initialQuantities, REASON_MAX_LENGTH, type AcceptQuantities } from './inbox.js';
import styles from './inbox.module.css';

interface AcceptFormProps {
  request: OrderRequest;
  busy: boolean;
  onAccept: (body: AcceptOrder) => Promise<boolean>;
  onBack: () => void;
}

export function AcceptForm({ request, busy, onAccept, onBack }: AcceptFormProps) {
  const id = useId();
  const t = useFarmerT();
  const [quantities, setQuantities] = useState<AcceptQuantities>(() => initialQuantities(request.lines));
  const [reason, setReason] = useState('');
  const [shown, setShown] = useState<{ lines: Record<string, string>; reason?: string }>({ lines: {} });
  const check = acceptBody(request.lines, quantities, reason);
  const lowered = check.ok ? check.lowered : request.lines.some((line) => Number(quantities[line.product_id]) < line.quantity);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!check.ok) {
      setShown({ lines: check.lineProblems, ...(check.reasonProblem ? { reason: check.reasonProblem } : {}) });
      const first = request.lines.findIndex((line) => check.lineProblems[line.product_id]);
      document.getElementById(first >= 0 ? `${id}-q${first}` : `${id}-reason`)?.focus();
      return;
    }
    setShown({ lines: {} });
    await onAccept(check.body);
  }

  return (
    <form className={styles.acceptForm} aria-label={t('inbox.accept_label', { number: request.number })} onSubmit={submit} noValidate>
      <p className={styles.formLead}>{t('inbox.accept_lead')}</p>
      {request.lines.map((line, index) => {
        const problem = shown.lines[line.product_id];
        return (
          <div key={line.product_id} className={styles.field}>
            <label htmlFor={`${id}-q${index}`}>
              {t('inbox.accept_line', { product: line.product_name, units: unitPlural(line.unit), quantity: String(line.quantity) })}
            </label>
            <input
              id={`${id}-q${index}`}
              type="number"
              inputMode="decimal"
              min="0.01"
              max={line.quantity}
              step="0.01"
              value={quantities[line.product_id] ?? ''}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-q${index}-problem` : undefined}
              onChange={(event) => {
                const typed = event.target.value;
                setQuantities((current) => ({ ...current, [line.product_id]: typed }));
                setShown((current) => ({ ...current, lines: { ...current.lines, [line.product_id]: '' } }));
              }}
            />
            {problem && (
              <span id={`${id}-q${index}-problem`} className={styles.problem}>
                {problem}
              </span>
            )}
          </div>
        );
      })}
      <div className={styles.field}>
        <label htmlFor={`${id}-reason`}>{lowered ? t('inbox.reason_lowered_label') : t('inbox.message_label')}</label>
        <textarea
          id={`${id}-reason`}
          rows={2}
          maxLength={REASON_MAX_LENGTH}
          value={reason}
          aria-invalid={shown.reason ? true : undefined}
          aria-describedby={shown.reason ? `${id}-reason-problem` : undefined}
          onChange={(event) => {
            setReason(event.target.value);
            setShown((current) => ({ lines: current.lines }));
          }}
        />
        {shown.reason && (
          <span id={`${id}-reason-problem`} className={styles.problem}>
            {shown.reason}
          </span>
        )}
      </div>
      <div className={styles.actions}>
        <Button type="submit" disabled={busy} aria-busy={busy}>
          {busy && <InlineSpinner />}
          {t('inbox.accept_request')}
        </Button>
        <Button variant="secondary" onClick={onBack} disabled={busy}>
          {t('common.back')}
        </Button>
      </div>
    </form>
  );
}
