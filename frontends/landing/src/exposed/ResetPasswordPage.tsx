// /reset-password (open): the link's single-use token (#token=…) is checked first; Update Password stays
// disabled until it passes. Exposed as landing/ResetPasswordPage.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from '@tuber/shell-contract/router';
import { ApiError, useApi, useAuth, useLocale, useToast } from '@tuber/shell-contract';
import { Button, problemText, translate, useT } from '@tuber/ui';
import { landingCatalogue } from '../i18n/catalogue.js';
import { Field } from '../account/Field.js';
import { ProofNote } from '../account/ProofNote.js';
import { useProofSend } from '../domain/proof.js';
import styles from '../account/forms.module.css';
import { MIN_PASSWORD_LENGTH, REDIRECT_DELAY_MS, errorToast, resetPasswordProblem, resetTokenFrom } from '../domain/rules.js';

type Check = 'checking' | 'valid' | 'invalid';

/** The body of POST /api/auth/password/reset/check: the link's token. */
export const resetCheckBody = (token: string) => ({ token });

export default function ResetPasswordPage() {
  const api = useApi();
  const auth = useAuth();
  const toast = useToast();
  const t = useT(landingCatalogue);
  const { locale } = useLocale();
  const navigate = useNavigate();
  const { hash } = useLocation();
  const [token] = useState(() => resetTokenFrom(hash || window.location.hash));
  const [check, setCheck] = useState<Check>('checking');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [updating, setUpdating] = useState(false);
  const proof = useProofSend();
  const sendWithProof = proof.send;
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(redirect.current), []);

  useEffect(() => {
    let active = true;
    const reject = (message: string) => {
      if (!active) return;
      setCheck('invalid');
      toast.error(message);
      navigate('/forgot-password', { replace: true });
    };
    if (!token) {
      reject(translate(landingCatalogue, 'toast.no-active-session'));
      return;
    }
    const body = resetCheckBody(token);
    sendWithProof((init) => api.post('/auth/password/reset/check', body, init))
      .then(() => active && setCheck('valid'))
      .catch((error: unknown) => reject(error instanceof ApiError && error.statusCode === 400 ? problemText(error) : errorToast(error)));
    return () => {
      active = false;
    };
  }, [api, navigate, sendWithProof, toast, token]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = resetPasswordProblem(password, confirm);
    if (problem) {
      toast.error(problem);
      return;
    }
    setUpdating(true);
    try {
      const body = { token, password, confirm_password: confirm };
      const answer = await proof.send((init) => api.post<{ message?: string }>('/auth/password/reset', body, init));
      toast.success(locale === 'en' && answer?.message ? answer.message : t('toast.password-updated'));
      setCheck('invalid'); // the link is used up
      // The server ended every session of this account; forget this browser's too (spec: signed out).
      await auth?.endSession().catch(() => undefined);
      redirect.current = setTimeout(() => navigate('/login'), REDIRECT_DELAY_MS);
    } catch (error) {
      toast.error(error instanceof ApiError && error.statusCode === 400 ? problemText(error) : errorToast(error));
    } finally {
      setUpdating(false);
    }
  }

  return (
    <div className={styles.page}>
      <section className={`${styles.card} ${styles.narrow}`} aria-labelledby="reset-title">
        <h1 id="reset-title" className={styles.title}>
          {t('reset.title')}
        </h1>
        <form className={styles.form} onSubmit={(event) => void submit(event)}>
          <Field
            label={t('reset.password')}
            type="password"
            name="password"
            autoComplete="new-password"
            hint={t('password.hint', { min: MIN_PASSWORD_LENGTH })}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <Field
            label={t('reset.confirm')}
            type="password"
            name="confirm_password"
            autoComplete="new-password"
            value={confirm}
            onChange={(event) => setConfirm(event.target.value)}
          />
          <Button type="submit" className={styles.submit} disabled={check !== 'valid' || updating}>
            {proof.checking ? t('account.checking') : updating ? t('reset.updating') : t('reset.submit')}
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
