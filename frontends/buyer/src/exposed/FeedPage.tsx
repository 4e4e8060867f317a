// The buyer product feed at /dashboard/buyer (spec §2): every product, newest first, more as the buyer scrolls.
import { useLayoutEffect } from 'react';
import { Navigate, useNavigationType } from '@tuber/ui/router';
import { Button, Spinner, useSession } from '@tuber/ui';
import { ProductCard } from '../feed/ProductCard.js';
import { useFeed } from '../feed/useFeed.js';
import { useSentinel } from '../feed/useSentinel.js';
import styles from '../feed/feed.module.css';

/** Cards in the first row at the widest layout, fetched eagerly. */
const EAGER_CARDS = 3;

export default function FeedPage() {
  const session = useSession();
  const navigationType = useNavigationType();
  const feed = useFeed(navigationType === 'POP');
  const sentinel = useSentinel<HTMLDivElement>(feed.loadMore, feed.status === 'ready' && feed.hasMore);

  // Back from a product (browser back): the remembered pages are already rendered, so return to where the
  // buyer was. The shell's scroll restoration runs before this remote's page exists and cannot do it.
  useLayoutEffect(() => {
    if (feed.restoredScrollY !== null) window.scrollTo(0, feed.restoredScrollY);
    // Only when the page first shows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Spec §6: a non-buyer opening the feed goes to the farmer's home.
  if (session.status === 'signed-in' && session.user.userType !== 'buyer') return <Navigate to="/dashboard/farmer" replace />;

  const firstLoad = feed.products.length === 0;
  return (
    <section className={styles.page} aria-labelledby="feed-title">
      <h1 id="feed-title" className={styles.title}>
        Products
      </h1>
      {firstLoad && feed.status === 'error' ? (
        <p role="alert" className={styles.error}>
          Error: {feed.error}
        </p>
      ) : null}
      {firstLoad && feed.status === 'ready' ? <p className={styles.empty}>There are no products yet. Check back soon.</p> : null}
      {feed.products.length > 0 ? (
        <div className={styles.grid} data-testid="product-grid">
          {feed.products.map((product, index) => (
            <ProductCard key={product.product_id} product={product} eager={index < EAGER_CARDS} />
          ))}
        </div>
      ) : null}
      {feed.status === 'loading' ? <Spinner label={firstLoad ? 'Loading products…' : 'Loading more products…'} /> : null}
      {!firstLoad && feed.status === 'error' ? (
        <div role="alert" className={styles.moreError}>
          <p>Error: {feed.error}</p>
          <Button variant="secondary" onClick={feed.loadMore}>
            Try again
          </Button>
        </div>
      ) : null}
      <div ref={sentinel} className={styles.sentinel} aria-hidden="true" />
    </section>
  );
}
