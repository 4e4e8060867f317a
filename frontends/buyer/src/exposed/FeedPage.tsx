// The buyer product feed at /dashboard/buyer (spec §2): every product, newest first, more as the buyer
// scrolls; with one search box, filters and a sort kept in the address (issue 11), so a search can be
// shared and Back/Forward step through searches.
import { useLayoutEffect, useMemo } from 'react';
import { Navigate, useLocation, useNavigate, useNavigationType } from '@tuber/shell-contract/router';
import { useSession, type PagePrefetchContext } from '@tuber/shell-contract';
import { Button, prepareNumberFormats, Spinner } from '@tuber/ui';
import { useCartOwner } from '../cart/useCartOwner.js';
import { FeedControls } from '../feed/FeedControls.js';
import { isNarrowed, NO_FILTERS, noResultsText, parseFeedSearch, toFeedSearch, type FeedFilters } from '../feed/feedQuery.js';
import { hasPhoto, ProductCard } from '../feed/ProductCard.js';
import { prefetchFeed, useFeed } from '../feed/useFeed.js';
import { useFirstPhotoFirst } from '../feed/useFirstPhotoFirst.js';
import { useSentinel } from '../feed/useSentinel.js';
import { useBuyerT } from '../i18n/t.js';
import { prefetchPricesNow, PricesNowContext, usePricesNowAll } from '../prices/pricesNow.js';
import { FarmerView } from '../trust/FarmerView.js';
import styles from '../feed/feed.module.css';
import filterStyles from '../feed/filters.module.css';

/** Cards in the first row at the widest layout, fetched at once; the first is the phone's largest paint. */
const EAGER_CARDS = 3;
const priorityOf = (index: number) => (index === 0 ? 'lcp' : index < EAGER_CARDS ? 'eager' : 'lazy');

/** The pages of one search. Mounted anew (keyed by the search) whenever the search changes. */
function FeedResults({
  filters,
  restore,
  clear,
  searchFor,
}: {
  filters: FeedFilters;
  restore: boolean;
  clear: () => void;
  searchFor: (q: string) => void;
}) {
  const t = useBuyerT();
  const feed = useFeed(filters, restore);
  const sentinel = useSentinel<HTMLDivElement>(feed.loadMore, feed.status === 'ready' && feed.hasMore);
  const first = feed.products[0];
  // Back to a feed whose pages were kept: its photos are in the cache, nothing to queue.
  const photos = useFirstPhotoFirst(first ? hasPhoto(first) : null, feed.restoredScrollY === null);

  // Back from a product (browser back): the remembered pages are already rendered, so return to where the
  // buyer was. The shell's scroll restoration runs before this remote's page exists and cannot do it.
  useLayoutEffect(() => {
    if (feed.restoredScrollY !== null) window.scrollTo(0, feed.restoredScrollY);
    // Only when the page first shows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const firstLoad = feed.products.length === 0;
  return (
    <>
      {feed.searchedAs && feed.products.length > 0 ? (
        <p className={filterStyles.searchedAs} role="status" data-testid="searched-as">
          {t('feed.searched-as', { q: feed.searchedAs })}
        </p>
      ) : null}
      {firstLoad && feed.status === 'error' ? (
        <p role="alert" className={styles.error}>
          {t('common.error', { message: feed.error ?? '' })}
        </p>
      ) : null}
      {firstLoad && feed.status === 'ready' ? (
        isNarrowed(filters) ? (
          <div className={filterStyles.emptyState} data-testid="feed-empty">
            <p>{noResultsText(filters, t)}</p>
            {feed.didYouMean ? (
              <p data-testid="did-you-mean">
                {t('feed.did-you-mean')}{' '}
                <button type="button" className={filterStyles.suggestion} onClick={() => searchFor(feed.didYouMean!)}>
                  {feed.didYouMean}
                </button>
              </p>
            ) : null}
            <Button variant="secondary" onClick={clear}>
              {t('feed.clear-filters')}
            </Button>
          </div>
        ) : (
          <p className={styles.empty} data-testid="feed-empty">
            {t('feed.empty')}
          </p>
        )
      ) : null}
      {feed.products.length > 0 ? (
        <div className={styles.grid} data-testid="product-grid">
          {feed.products.map((product, index) => (
            <ProductCard
              key={product.product_id}
              product={product}
              priority={priorityOf(index)}
              {...(index === 0 ? { firstPhoto: photos } : { holdPhoto: photos.held })}
            />
          ))}
        </div>
      ) : null}
      {feed.status === 'loading' ? <Spinner label={firstLoad ? t('feed.loading') : t('feed.loading-more')} /> : null}
      {!firstLoad && feed.status === 'error' ? (
        <div role="alert" className={styles.moreError}>
          <p>{t('common.error', { message: feed.error ?? '' })}</p>
          <Button variant="secondary" onClick={feed.loadMore}>
            {t('common.try-again')}
          </Button>
        </div>
      ) : null}
      <div ref={sentinel} className={styles.sentinel} aria-hidden="true" />
    </>
  );
}

/**
 * The shell's first-load prefetch (PagePrefetchContext): the first page of the address's search starts while
 * the page renders; the first card's photo, the phone's largest paint, waits for it.
 */
export function prefetch({ api, url, session }: PagePrefetchContext): void {
  if (session.status !== 'signed-in' || session.user.userType !== 'buyer') return;
  if (new URLSearchParams(url.search).has('farmer')) return; // a farmer page (issue 26) reads its own
  prefetchFeed(api, parseFeedSearch(url.search));
  // The cards' price markers (issue 27): every tuber's figures in one request, on its way with the products.
  prefetchPricesNow(api);
  // The cards' prices need the number formats, whose first making is slow on a cheap phone: made while the
  // products travel, when the page has nothing else to do. (An older shell's @tuber/ui has no such function.)
  if (typeof prepareNumberFormats === 'function') {
    if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(() => prepareNumberFormats(), { timeout: 500 });
    else window.setTimeout(() => prepareNumberFormats(), 0);
  }
}

export default function FeedPage() {
  const session = useSession();
  const t = useBuyerT();
  useCartOwner();
  const navigationType = useNavigationType();
  const location = useLocation();
  const navigate = useNavigate();
  const filters = useMemo(() => parseFeedSearch(location.search), [location.search]);
  const search = toFeedSearch(filters);
  // Every tuber's figures for the cards' price markers (issue 27): one request for the page view, whatever is searched.
  const prices = usePricesNowAll();

  const apply = (next: FeedFilters) => {
    const nextSearch = toFeedSearch(next);
    if (nextSearch !== search) void navigate({ pathname: location.pathname, search: nextSearch });
  };

  // Spec §6: a non-buyer opening the feed goes to the farmer's home.
  if (session.status === 'signed-in' && session.user.userType !== 'buyer') return <Navigate to="/dashboard/farmer" replace />;
  // A farmer page (issue 26) lives on the feed's address: ?farmer=<id>.
  const farmerId = new URLSearchParams(location.search).get('farmer');
  if (farmerId)
    return (
      <PricesNowContext.Provider value={prices}>
        <FarmerView key={farmerId} farmerId={farmerId} />
      </PricesNowContext.Provider>
    );

  return (
    <section className={styles.page} aria-labelledby="feed-title">
      <h1 id="feed-title" className={styles.title}>
        {t('feed.title')}
      </h1>
      <FeedControls filters={filters} apply={apply} />
      <PricesNowContext.Provider value={prices}>
        <FeedResults
          key={search}
          filters={filters}
          restore={navigationType === 'POP'}
          clear={() => apply({ ...NO_FILTERS, sort: filters.sort })}
          searchFor={(q) => apply({ ...filters, q })}
        />
      </PricesNowContext.Provider>
    </section>
  );
}
