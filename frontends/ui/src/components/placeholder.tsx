import type { ReactNode } from 'react';
import styles from './placeholder.module.css';

/** A page that is wired up but not built yet: a heading, a line of text and optional actions. */
export function PagePlaceholder({ title, children, actions }: { title: string; children?: ReactNode; actions?: ReactNode }) {
  return (
    <section className={styles.placeholder}>
      <h1 className={styles.title}>{title}</h1>
      <p className={styles.text}>{children}</p>
      {actions}
    </section>
  );
}
