import { useId, useState, type InputHTMLAttributes, type Ref } from 'react';
import { useT } from '@tuber/ui';
import { landingCatalogue } from '../i18n/catalogue.js';
import styles from './forms.module.css';

type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  hint?: string;
  /** What is wrong with the value (the server's sentence): shown under the field and read out with it. */
  error?: string;
  ref?: Ref<HTMLInputElement>;
};

/**
 * A labelled input, with an optional hint and error read out with it; every field of the account forms
 * is required (spec §5). A password field has a Show/Hide button, like Keycloak's login page.
 */
export function Field({ label, hint, error, type, ...input }: FieldProps) {
  const id = useId();
  const t = useT(landingCatalogue);
  const [shown, setShown] = useState(false);
  const password = type === 'password';
  const describedBy = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  const control = (
    <input
      id={id}
      className={styles.input}
      required
      type={password && shown ? 'text' : type}
      aria-describedby={describedBy || undefined}
      aria-invalid={error ? true : undefined}
      {...input}
    />
  );
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      {password ? (
        <div className={styles.passwordBox}>
          {control}
          <button type="button" className={styles.reveal} aria-controls={id} onClick={() => setShown((now) => !now)}>
            {shown ? t('field.hide') : t('field.show')}
            <span className={styles.visuallyHidden}> {t('field.password')}</span>
          </button>
        </div>
      ) : (
        control
      )}
      {error && (
        <p id={`${id}-error`} className={styles.error}>
          {error}
        </p>
      )}
      {hint && (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      )}
    </div>
  );
}
