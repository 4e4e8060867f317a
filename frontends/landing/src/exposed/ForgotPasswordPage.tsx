// /forgot-password (guests only): e-mail a reset link, clear the form, /login after 3 s. Exposed as landing/ForgotPasswordPage.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tuber/shell-contract/router';
import { useApi, useLocale, useToast, type Locale } from '@tuber/shell-contract';
import { Button, useT } from '@tuber/ui';
import { landingCatalogue } from '../i18n/catalogue.js';
import { Field } from '../account/Field.js';
import { ProofNote } from '../account/ProofNote.js';
import { useProofSend } from '../domain/proof.js';
import styles from '../account/forms.module.css';
import { REDIRECT_DELAY_MS, errorToast } from '../domain/rules.js';

/** The body of POST /api/auth/password/forgot: the address, and the page's language for the mail. */
export const forgotPasswordBody = (email: string, locale: Locale) => ({ email, locale });

export default function ForgotPasswordPage() {
  const api = useApi();
  const toast = useToast();
  const t = useT(landingCatalogue);
  const { locale } = useLocale();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [sending, setSending] = useState(false);
  const proof = useProofSend();
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(redirect.current), []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSending(true);
    try {
      const body = forgotPasswordBody(email, locale);
      const answer = await proof.send((init) => api.post<{ message?: string }>('/auth/password/forgot', body, init));
      toast.success(locale === 'en' && answer?.message ? answer.message : t('toast.reset-link-sent'));
      setEmail('');
      redirect.current = setTimeout(() => navigate('/login'), REDIRECT_DELAY_MS);
    } catch (error) {
      toast.error(errorToast(error));
    } finally {
      setSending(false);
    }
  }

  return (
    <div className={styles.page}>
      <section className={`${styles.card} ${styles.narrow}`} aria-labelledby="forgot-title">
        <h1 id="forgot-title" className={styles.title}>
          {t('forgot.title')}
        </h1>
        <p className={styles.text}>{t('forgot.text')}</p>
        <form className={styles.form} onSubmit={(event) => void submit(event)}>
          <Field
            label={t('signup.email')}
            type="email"
            name="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <Button type="submit" className={styles.submit} disabled={sending}>
            {proof.checking ? t('account.checking') : sending ? t('account.sending') : t('forgot.submit')}
          </Button>
          <ProofNote checking={proof.checking} />
        </form>
        <p className={styles.links}>
          <Link to="/login">{t('account.back-to-login')}</Link>
        </p>
      </section>
    </div>
  );
}
