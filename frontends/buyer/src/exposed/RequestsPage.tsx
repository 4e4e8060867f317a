// My requests at /dashboard/requests (issue 12): the order requests this buyer sent, newest first, each with
// its status and history; Load more for older ones.
import { Link } from '@tuber/shell-contract/router';
import { Button, buttonClass, Spinner } from '@tuber/ui';
import { useCartOwner } from '../cart/useCartOwner.js';
import { FEED_ROUTE } from '../catalog/types.js';
import { RequestCard } from '../requests/RequestCard.js';
import { useRequests } from '../requests/useRequests.js';
import { useBuyerT } from '../i18n/t.js';
import styles from '../requests/requests.module.css';

export default function RequestsPage() {
  useCartOwner();
  const t = useBuyerT();
  const { state, retry, loadMore, replace } = useRequests();
  return (
    <section className={styles.page} aria-labelledby="requests-title">
      <h1 id="requests-title" className={styles.title}>
        {t('requests.title')}
      </h1>
      {state.status === 'loading' ? <Spinner label={t('requests.loading')} /> : null}
      {state.status === 'error' ? (
        <div className={styles.state}>
          <p role="alert" className={styles.error}>
            {t('common.error', { message: state.message })}
          </p>
          <Button variant="secondary" onClick={retry}>
            {t('common.try-again')}
          </Button>
        </div>
      ) : null}
      {state.status === 'ready' && state.items.length === 0 ? (
        <div className={styles.state}>
          <p className={styles.empty}>{t('requests.empty')}</p>
          <p className={styles.muted}>{t('requests.empty-hint')}</p>
          <Link to={FEED_ROUTE} className={buttonClass('primary')}>
            {t('common.browse-products')}
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
              {t('requests.more-error', { message: state.moreError })}
            </p>
          ) : null}
          {state.nextCursor ? (
            <div className={styles.more}>
              <Button variant="secondary" onClick={loadMore} disabled={state.loadingMore} aria-busy={state.loadingMore}>
                {state.loadingMore ? t('requests.loading-more') : t('requests.load-more')}
              </Button>
            </div>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
