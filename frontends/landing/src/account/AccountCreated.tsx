// The sign-up success view (spec §2): "Account Created!", the verification notice, the product's own
// "Resend verification" (spec §8's toasts) and Go to Login, which opens Keycloak's login page.
import { useState } from 'react';
import { Link } from '@tuber/shell-contract/router';
import { useApi, useLocale, useToast } from '@tuber/shell-contract';
import { Button, buttonClass, useT } from '@tuber/ui';
import { useProofSend } from '../domain/proof.js';
import { resendFailure } from '../domain/rules.js';
import { landingCatalogue } from '../i18n/catalogue.js';
import styles from './forms.module.css';
import { ProofNote } from './ProofNote.js';

export function AccountCreated({ email }: { email: string }) {
  const api = useApi();
  const toast = useToast();
  const t = useT(landingCatalogue);
  const { locale } = useLocale();
  const [sending, setSending] = useState(false);
  const proof = useProofSend();

  async function resend() {
    setSending(true);
    try {
      const answer = await proof.send((init) => api.post<{ message?: string }>('/auth/verification/resend', { email }, init));
      toast.success(locale === 'en' && answer?.message ? answer.message : t('toast.verification-resent'));
    } catch (error) {
      toast.error(resendFailure(error));
    } finally {
      setSending(false);
    }
  }

  return (
    <section className={`${styles.card} ${styles.center}`} aria-labelledby="created-title">
      <h1 id="created-title" className={styles.title}>
        {t('created.title')}
      </h1>
      <div className={styles.notice}>
        <p>
          <strong>{t('created.verify')}</strong>
        </p>
        <p>{t('created.sent-to')}</p>
        <p>
          <strong className={styles.address}>{email}</strong>
        </p>
        <p>{t('created.open-it')}</p>
      </div>
      <Link to="/login" className={buttonClass('primary', styles.submit)}>
        {t('created.go-to-login')}
      </Link>
      <div className={styles.resend}>
        <span>{t('created.no-email')}</span>
        <Button variant="secondary" className={styles.submit} disabled={sending} onClick={() => void resend()}>
          {proof.checking ? t('account.checking') : sending ? t('account.sending') : t('created.resend')}
        </Button>
        <ProofNote checking={proof.checking} />
      </div>
    </section>
  );
}
