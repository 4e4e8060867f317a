// My requests at /dashboard/requests (issue 12): the order requests this buyer sent, newest first, each with
// its status and history; Load more for older ones.
import { Link } from '@tuber/ui/router';
import { Button, buttonClass, Spinner } from '@tuber/ui';
import { useCartOwner } from '../cart/useCartOwner.js';
import { FEED_ROUTE } from '../catalog/types.js';
import { RequestCard } from '../requests/RequestCard.js';
import { useRequests } from '../requests/useRequests.js';
import styles from '../requests/requests.module.css';

export default function RequestsPage() {
  useCartOwner();
  const { state, retry, loadMore, replace } = useRequests();
  return (
    <section className={styles.page} aria-labelledby="requests-title">
      <h1 id="requests-title" className={styles.title}>
        My requests
      </h1>
      {state.status === 'loading' ? <Spinner label="Loading your requests…" /> : null}
      {state.status === 'error' ? (
        <div className={styles.state}>
          <p role="alert" className={styles.error}>
            Error: {state.message}
          </p>
          <Button variant="secondary" onClick={retry}>
            Try again
          </Button>
        </div>
      ) : null}
      {state.status === 'ready' && state.items.length === 0 ? (
        <div className={styles.state}>
          <p className={styles.empty}>You have not sent any requests yet</p>
          <p className={styles.muted}>Add products to your cart, then send a request to each farmer from the cart.</p>
          <Link to={FEED_ROUTE} className={buttonClass('primary')}>
            Browse products
          </Link>
        </div>
      ) : null}
      {state.status === 'ready' && state.items.length > 0 ? (
        <>
          <ul className={styles.list} data-testid="request-list">
            {state.items.map((request) => (
              <RequestCard key={request.request_id} request={request} onChange={replace} />
            ))}
          </ul>
          {state.moreError ? (
            <p role="alert" className={styles.error}>
              Could not load more requests: {state.moreError}
            </p>
          ) : null}
          {state.nextCursor ? (
            <div className={styles.more}>
              <Button variant="secondary" onClick={loadMore} disabled={state.loadingMore} aria-busy={state.loadingMore}>
                {state.loadingMore ? 'Loading…' : 'Load more'}
              </Button>
            </div>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
