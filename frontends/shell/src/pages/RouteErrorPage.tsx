import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import styles from './pages.module.css';

/** What the router shows when a route throws: the status (e.g. "500 Internal Server Error") or the message. */
export function describeRouteError(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'Unknown error';
}

export function RouteErrorPage() {
  const error = useRouteError();
  return (
    <section className={styles.page} role="alert">
      <h1 className={styles.title}>Unexpected Application Error!</h1>
      <p className={styles.detail}>{describeRouteError(error)}</p>
    </section>
  );
}
