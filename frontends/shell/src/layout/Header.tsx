import { Link } from 'react-router-dom';
import styles from './header.module.css';

export function Header() {
  return (
    <header className={styles.header}>
      <div className={styles.inner}>
        <Link to="/" className={styles.wordmark} aria-label="Tuber Market home">
          Tuber Market
        </Link>
      </div>
    </header>
  );
}
