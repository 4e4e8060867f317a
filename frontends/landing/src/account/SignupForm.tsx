// Create New Farmer/Buyer Account (spec §5): every field required, e-mail and telephone input types,
// the seven tuber checkboxes for farmers; "Passwords do not match!" and the 8-character minimum are checked
// here before the server does (it also refuses common passwords, and its message is shown).
import { useRef, useState, type FormEvent } from 'react';
import { Link } from '@tuber/shell-contract/router';
import { useApi, useLocale, useToast, type Locale } from '@tuber/shell-contract';
import { Button, useT } from '@tuber/ui';
import { landingCatalogue } from '../i18n/catalogue.js';
import { MIN_PASSWORD_LENGTH, TUBERS, phoneFieldProblem, signupFailure, signupPasswordProblem } from '../domain/rules.js';
import { useProofSend } from '../domain/proof.js';
import { AccountCreated } from './AccountCreated.js';
import { Field } from './Field.js';
import styles from './forms.module.css';
import { ProofNote } from './ProofNote.js';

export type Role = 'farmer' | 'buyer';

const emptyForm = {
  firstname: '',
  lastname: '',
  business_name: '',
  location: '',
  email: '',
  phone: '',
  password: '',
  confirm_password: '',
};

export type SignupFields = typeof emptyForm;

/** The body of POST /api/auth/signup/{role}: what the person typed, the page's language, and a farmer's farm. */
export function signupBody(role: Role, form: SignupFields, tuber: readonly string[], locale: Locale) {
  const person = {
    firstname: form.firstname,
    lastname: form.lastname,
    email: form.email,
    phone: form.phone,
    password: form.password,
    confirm_password: form.confirm_password,
    // The account keeps the language chosen here: Keycloak's pages and our e-mails follow it (ADR 0044).
    locale,
  };
  return role === 'farmer'
    ? { ...person, business_name: form.business_name, location: form.location, tuber: TUBERS.filter((t) => tuber.includes(t)) }
    : person;
}

export function SignupForm({ role }: { role: Role }) {
  const api = useApi();
  const toast = useToast();
  const t = useT(landingCatalogue);
  const { locale } = useLocale();
  const [form, setForm] = useState(emptyForm);
  const [tuber, setTuber] = useState<string[]>([]);
  const [submitting, setSubmitting] = useState(false);
  const proof = useProofSend();
  const [createdFor, setCreatedFor] = useState<string | null>(null);
  /** The server's sentence when it refused the phone number (shown on the field, issue 12). */
  const [phoneProblem, setPhoneProblem] = useState<string | undefined>();
  const phoneInput = useRef<HTMLInputElement>(null);

  const field = (name: keyof typeof emptyForm) => ({
    name,
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm((current) => ({ ...current, [name]: event.target.value })),
  });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = signupPasswordProblem(form.password, form.confirm_password);
    if (problem) {
      toast.error(problem);
      return;
    }
    const body = signupBody(role, form, tuber, locale);
    setSubmitting(true);
    try {
      const answer = await proof.send((init) => api.post<{ message?: string }>(`/auth/signup/${role}`, body, init));
      // The server's sentence is the spec's English one; in another language, ours.
      toast.success(locale === 'en' && answer?.message ? answer.message : t('toast.registration-successful'));
      setCreatedFor(form.email);
    } catch (error) {
      toast.error(signupFailure(error));
      const problem = phoneFieldProblem(error);
      setPhoneProblem(problem);
      if (problem) phoneInput.current?.focus();
    } finally {
      setSubmitting(false);
    }
  }

  if (createdFor) return <AccountCreated email={createdFor} />;

  const title = role === 'farmer' ? t('signup.title.farmer') : t('signup.title.buyer');
  return (
    <section className={styles.card} aria-labelledby="signup-title">
      <h1 id="signup-title" className={styles.title}>
        {title}
      </h1>
      <form className={styles.form} onSubmit={(event) => void submit(event)}>
        <div className={styles.row}>
          <Field label={t('signup.first-name')} autoComplete="given-name" {...field('firstname')} />
          <Field label={t('signup.last-name')} autoComplete="family-name" {...field('lastname')} />
        </div>
        {role === 'farmer' && (
          <>
            <Field label={t('signup.business-name')} autoComplete="organization" {...field('business_name')} />
            <fieldset className={styles.fieldset}>
              <legend className={styles.label}>{t('signup.tubers')}</legend>
              <div className={styles.checks}>
                {TUBERS.map((name) => (
                  <label key={name} className={styles.check}>
                    <input
                      type="checkbox"
                      name="tuber"
                      value={name}
                      checked={tuber.includes(name)}
                      onChange={(event) =>
                        setTuber((current) => (event.target.checked ? [...current, name] : current.filter((t) => t !== name)))
                      }
                    />
                    {t(`tuber.${name.replace(' ', '-')}`)}
                  </label>
                ))}
              </div>
            </fieldset>
            <Field label={t('signup.location')} autoComplete="street-address" {...field('location')} />
          </>
        )}
        <Field label={t('signup.email')} type="email" autoComplete="email" {...field('email')} />
        <Field
          label={t('signup.phone')}
          type="tel"
          autoComplete="tel"
          hint={t('signup.phone-hint')}
          error={phoneProblem}
          ref={phoneInput}
          {...field('phone')}
          onChange={(event) => {
            setForm((current) => ({ ...current, phone: event.target.value }));
            setPhoneProblem(undefined);
          }}
        />
        <div className={styles.row}>
          <Field
            label={t('signup.password')}
            type="password"
            autoComplete="new-password"
            hint={t('password.hint', { min: MIN_PASSWORD_LENGTH })}
            {...field('password')}
          />
          <Field label={t('signup.confirm-password')} type="password" autoComplete="new-password" {...field('confirm_password')} />
        </div>
        <Button type="submit" className={styles.submit} disabled={submitting}>
          {proof.checking ? t('account.checking') : submitting ? t('signup.submitting') : t('signup.submit')}
        </Button>
        <ProofNote checking={proof.checking} />
      </form>
      <p className={styles.links}>
        {t('account.have-account')} <Link to="/login">{t('account.login')}</Link>
      </p>
    </section>
  );
}
