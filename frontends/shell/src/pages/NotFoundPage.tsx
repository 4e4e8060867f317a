import { Link } from '@tuber/ui/router';
import { buttonClass } from '@tuber/ui';
import styles from './pages.module.css';

export function NotFoundPage() {
  return (
    <section className={styles.page}>
      <h1 className={styles.title}>404 Not Found</h1>
      <p className={styles.text}>The page you are looking for does not exist.</p>
      <Link to="/" className={buttonClass('secondary')}>
        Back to home
      </Link>
    </section>
  );
}
