// "Report" on a product, a farm and an order request (issue 26, docs/adr/0071): a reason, an optional note, sent
// to the trust-and-safety service. Shared by the buyer's and the farmer's front ends as library code (each
// bundles its copy); it speaks only to POST /api/moderation/reports. Answers and refusals show in place.
import { useId, useState, type FormEvent } from 'react';
import { REPORT_NOTE_MAX, REPORT_REASONS, type ReportReason, type ReportReceipt, type ReportTargetKind } from '@tuber/contracts';
import type { ApiClient } from '@tuber/shell-contract';
import { useT } from '../i18n/catalogue.js';
import { problemCatalogue, useProblemText } from '../problems.js';
import { Button } from './button.js';
import styles from './report.module.css';

export interface ReportActionProps {
  api: ApiClient;
  kind: ReportTargetKind;
  targetId: string;
}

type Step = { kind: 'closed' } | { kind: 'open' } | { kind: 'sending' } | { kind: 'sent'; merged: boolean };

export function ReportAction({ api, kind, targetId }: ReportActionProps) {
  const t = useT(problemCatalogue);
  const problemText = useProblemText();
  const id = useId();
  const [step, setStep] = useState<Step>({ kind: 'closed' });
  const [reason, setReason] = useState<ReportReason>();
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string>();

  if (step.kind === 'sent') {
    return (
      <p className={styles.done} role="status" data-testid="report-sent">
        {t(step.merged ? 'report.merged' : 'report.sent')}
      </p>
    );
  }
  if (step.kind === 'closed') {
    return (
      <div className={styles.report}>
        <button type="button" className={styles.open} onClick={() => setStep({ kind: 'open' })} data-testid="report-open" aria-expanded={false}>
          {t(`report.open_${kind}`)}
        </button>
      </div>
    );
  }

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!reason) {
      setProblem(t('report.choose_reason'));
      document.getElementById(`${id}-reason-${REPORT_REASONS[0]}`)?.focus();
      return;
    }
    setProblem(undefined);
    setStep({ kind: 'sending' });
    try {
      const receipt = await api.post<ReportReceipt>('/moderation/reports', {
        target_kind: kind,
        target_id: targetId,
        reason,
        ...(note.trim() ? { note: note.trim() } : {}),
      });
      setStep({ kind: 'sent', merged: receipt.merged });
    } catch (error) {
      setStep({ kind: 'open' });
      setProblem(problemText(error));
    }
  }

  return (
    <form className={styles.form} onSubmit={send} noValidate aria-label={t(`report.open_${kind}`)} data-testid="report-form">
      <fieldset className={styles.reasons}>
        <legend className={styles.legend}>{t('report.why')}</legend>
        {REPORT_REASONS.map((value) => (
          <label key={value} className={styles.reason} htmlFor={`${id}-reason-${value}`}>
            <input
              id={`${id}-reason-${value}`}
              type="radio"
              name={`${id}-reason`}
              value={value}
              checked={reason === value}
              onChange={() => {
                setReason(value);
                setProblem(undefined);
              }}
            />
            {t(`report.reason_${value}`)}
          </label>
        ))}
      </fieldset>
      <label className={styles.label} htmlFor={`${id}-note`}>
        {t('report.note')}
        <textarea id={`${id}-note`} className={styles.note} value={note} maxLength={REPORT_NOTE_MAX} onChange={(e) => setNote(e.target.value)} />
      </label>
      <span className={styles.count} aria-live="polite">
        {t('report.count', { count: note.length, max: REPORT_NOTE_MAX })}
      </span>
      {problem && (
        <p className={styles.problem} role="alert">
          {problem}
        </p>
      )}
      <div className={styles.actions}>
        <Button type="submit" disabled={step.kind === 'sending'}>
          {step.kind === 'sending' ? t('report.sending') : t('report.send')}
        </Button>
        <Button variant="secondary" onClick={() => setStep({ kind: 'closed' })} disabled={step.kind === 'sending'}>
          {t('report.cancel')}
        </Button>
      </div>
    </form>
  );
}
