// Stars drawn from a number (1–5, halves rounded): filled and empty, with the number for screen readers.
import styles from './trust.module.css';

export function Stars({ value, label }: { value: number; label: string }) {
  const filled = Math.round(value);
  return (
    <span className={styles.stars} role="img" aria-label={label}>
      {[1, 2, 3, 4, 5].map((n) => (
        <span key={n} aria-hidden="true" className={n <= filled ? styles.starOn : styles.starOff}>
          ★
        </span>
      ))}
    </span>
  );
}
