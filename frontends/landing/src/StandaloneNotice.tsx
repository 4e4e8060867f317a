import { Link, useLocation } from '@tuber/ui/router';

/** Links that leave the landing remote (e.g. /login) land here when it runs without the shell. */
export function StandaloneNotice() {
  const { pathname } = useLocation();
  return (
    <section style={{ padding: '4rem 1.25rem', textAlign: 'center' }}>
      <h1>{pathname}</h1>
      <p>This page belongs to the shell or another remote. The landing remote is running on its own.</p>
      <p>
        <Link to="/">Back to the landing page</Link>
      </p>
    </section>
  );
}
