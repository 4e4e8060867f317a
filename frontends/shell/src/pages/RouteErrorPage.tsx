import { useRouteError } from '@tuber/ui/router';
import { describeRouteError } from './routeError.js';
import styles from './pages.module.css';

export function RouteErrorPage() {
  const error = useRouteError();
  return (
    <section className={styles.page} role="alert">
      <h1 className={styles.title}>Unexpected Application Error!</h1>
      <p className={styles.detail}>{describeRouteError(error)}</p>
    </section>
  );
}
