// The sign-up success view (spec §2): "Account Created!", the verification notice, the product's own
// "Resend verification" (spec §8's toasts) and Go to Login, which opens Keycloak's login page.
import { useState } from 'react';
import { Link } from '@tuber/ui/router';
import { Button, buttonClass, useApi, useToast } from '@tuber/ui';
import { VERIFICATION_RESENT, resendFailure } from '../domain/rules.js';
import styles from './forms.module.css';

export function AccountCreated({ email }: { email: string }) {
  const api = useApi();
  const toast = useToast();
  const [sending, setSending] = useState(false);

  async function resend() {
    setSending(true);
    try {
      const answer = await api.post<{ message?: string }>('/auth/verification/resend', { email });
      toast.success(answer?.message ?? VERIFICATION_RESENT);
    } catch (error) {
      toast.error(resendFailure(error));
    } finally {
      setSending(false);
    }
  }

  return (
    <section className={`${styles.card} ${styles.center}`} aria-labelledby="created-title">
      <h1 id="created-title" className={styles.title}>
        Account Created!
      </h1>
      <div className={styles.notice}>
        <p>
          <strong>Please verify your email before logging in.</strong>
        </p>
        <p>We have sent a verification link to</p>
        <p>
          <strong className={styles.address}>{email}</strong>
        </p>
        <p>Open it, then log in.</p>
      </div>
      <Link to="/login" className={buttonClass('primary', styles.submit)}>
        Go to Login
      </Link>
      <div className={styles.resend}>
        <span>No e-mail after a few minutes? Check your spam folder, or</span>
        <Button variant="secondary" className={styles.submit} disabled={sending} onClick={() => void resend()}>
          {sending ? 'Sending…' : 'Resend verification'}
        </Button>
      </div>
    </section>
  );
}
