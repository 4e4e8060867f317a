import styles from './inlineSpinner.module.css';

/** A spinner the size of a line of text, for buttons that are busy. */
export function InlineSpinner() {
  return <span className={styles.spinner} aria-hidden="true" />;
}
