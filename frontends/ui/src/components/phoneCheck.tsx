// Verifying the profile's phone number by SMS (issue 26, docs/adr/0070): "Verify by SMS" sends a 6-digit code,
// the person types it back, and the number shows a "Verified" badge. Shared by the buyer's and the farmer's
// profile pages as library code (each front end bundles its copy, docs/adr/0054); it speaks only to the profile
// service's two phone routes. Refusals show under the field, never in a toast alone.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { displayPhone, PHONE_CODE_DIGITS, PHONE_CODE_TTL_MINUTES, type PhoneCodeSent } from '@tuber/contracts';
import { getLocale, type ApiClient } from '@tuber/shell-contract';
import { useT } from '../i18n/catalogue.js';
import { problemCatalogue, useProblemText } from '../problems.js';
import { Button } from './button.js';
import styles from './phoneCheck.module.css';

/** The "Verified" badge beside a number (profile pages, the farm page). */
export function VerifiedBadge({ label }: { label?: string }) {
  const t = useT(problemCatalogue);
  return (
    <span className={styles.badge} data-testid="phone-verified-badge">
      <span aria-hidden="true">✓</span> {label ?? t('phone.verified')}
    </span>
  );
}

export interface PhoneCheckProps<P> {
  api: ApiClient;
  /** The profile's number, E.164 digits. */
  phone: string;
  verified: boolean;
  /** The profile the server answers once the code is right, and the words saying so. */
  onVerified: (profile: P, message: string) => void;
}

type Step = { kind: 'idle' } | { kind: 'sending' } | { kind: 'sent'; sent: PhoneCodeSent } | { kind: 'checking'; sent: PhoneCodeSent };

const secondsUntil = (iso: string, now: number) => Math.max(0, Math.ceil((Date.parse(iso) - now) / 1000));

export function PhoneCheck<P>({ api, phone, verified, onVerified }: PhoneCheckProps<P>) {
  const t = useT(problemCatalogue);
  const problemText = useProblemText();
  const id = useId();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string>();
  const [now, setNow] = useState(() => Date.now());
  const sent = step.kind === 'sent' || step.kind === 'checking' ? step.sent : undefined;
  const wait = sent ? secondsUntil(sent.resend_at, now) : 0;

  // The resend countdown ticks while there is one.
  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), 1000);
    return () => clearTimeout(timer);
  }, [wait, now]);
  // A new number (saved from the form above) starts over.
  useEffect(() => {
    setStep({ kind: 'idle' });
    setCode('');
    setProblem(undefined);
  }, [phone]);

  if (verified) {
    return (
      <div className={styles.check}>
        <div className={styles.status}>
          <VerifiedBadge />
        </div>
      </div>
    );
  }

  async function send() {
    setProblem(undefined);
    const before = step;
    setStep({ kind: 'sending' });
    try {
      // The SMS in the language of the page.
      const answer = await api.post<PhoneCodeSent>('/profile/me/phone/code', { locale: getLocale() });
      setNow(Date.now());
      setCode('');
      setStep({ kind: 'sent', sent: answer });
      document.getElementById(`${id}-code`)?.focus();
    } catch (error) {
      setStep(before.kind === 'sent' ? before : { kind: 'idle' });
      setProblem(problemText(error));
    }
  }

  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!sent) return;
    if (!new RegExp(`^[0-9]{${PHONE_CODE_DIGITS}}$`).test(code.trim())) {
      setProblem(t('phone.code_format', { digits: PHONE_CODE_DIGITS }));
      document.getElementById(`${id}-code`)?.focus();
      return;
    }
    setProblem(undefined);
    setStep({ kind: 'checking', sent });
    try {
      const profile = await api.post<P>('/profile/me/phone/verify', { code: code.trim() });
      setStep({ kind: 'idle' });
      onVerified(profile, t('phone.done'));
    } catch (error) {
      setStep({ kind: 'sent', sent });
      setProblem(problemText(error));
      document.getElementById(`${id}-code`)?.focus();
    }
  }

  return (
    <div className={styles.check} data-testid="phone-check">
      <div className={styles.status}>
        <span className={styles.unverified}>{t('phone.not_verified')}</span>
        {!sent && (
          <Button variant="secondary" onClick={send} disabled={step.kind === 'sending'}>
            {step.kind === 'sending' ? t('phone.sending') : t('phone.verify')}
          </Button>
        )}
      </div>
      {!sent && <p className={styles.note}>{t('phone.why')}</p>}
      {sent && (
        <form className={styles.check} onSubmit={confirm} noValidate aria-label={t('phone.form')}>
          <p className={styles.note} role="status">
            {t('phone.sent', { phone: displayPhone(sent.phone), minutes: PHONE_CODE_TTL_MINUTES })}
          </p>
          <div className={styles.row}>
            <label className={styles.label} htmlFor={`${id}-code`}>
              {t('phone.code_label')}
              <input
                id={`${id}-code`}
                className={styles.code}
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9]*"
                maxLength={PHONE_CODE_DIGITS}
                value={code}
                onChange={(e) => {
                  setCode(e.target.value.replace(/\D/g, ''));
                  setProblem(undefined);
                }}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? `${id}-problem` : undefined}
              />
            </label>
            <Button type="submit" disabled={step.kind === 'checking'}>
              {step.kind === 'checking' ? t('phone.confirming') : t('phone.confirm')}
            </Button>
            <Button variant="secondary" onClick={send} disabled={wait > 0 || step.kind === 'checking'}>
              {wait > 0 ? t('phone.resend_in', { seconds: wait }) : t('phone.resend')}
            </Button>
          </div>
        </form>
      )}
      {problem && (
        <p id={`${id}-problem`} className={styles.problem} role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
