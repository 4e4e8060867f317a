import { useId, type InputHTMLAttributes } from 'react';
import styles from './forms.module.css';

/** A labelled input; every field of the account forms is required (spec §5). */
export function Field({ label, ...input }: InputHTMLAttributes<HTMLInputElement> & { label: string }) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <input id={id} className={styles.input} required {...input} />
    </div>
  );
}
