// /dashboard/insights: what buyers did with the farmer's products over the last 7 or 30 days
// (views, contact clicks, cart adds, requests), in figures, a daily chart and a table per product.
import { Link, useLocation, useNavigate } from '@tuber/ui/router';
import { Button, Spinner, buttonClass } from '@tuber/ui';
import { ADD_PRODUCT_PATH } from '../shared/paths.js';
import { InsightsChart } from './InsightsChart.js';
import { ProductInsightsTable } from './ProductInsightsTable.js';
import { EMPTY_MESSAGE, INSIGHT_WINDOWS, hasActivity, totalCards, windowFromSearch, type InsightWindow } from './insightsView.js';
import { useInsights } from './useInsights.js';
import styles from './insights.module.css';

export function InsightsPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const days = windowFromSearch(location.search);
  const { state, reload } = useInsights(days);
  const insights = state.status === 'loaded' ? state.insights : state.status === 'loading' ? state.previous : undefined;

  const choose = (window: InsightWindow) => {
    if (window !== days) navigate({ search: window === 7 ? '' : `?days=${window}` }, { replace: true });
  };

  return (
    <section className={styles.page} aria-busy={state.status === 'loading'}>
      <div className={styles.head}>
        <h1 className={styles.title}>Insights</h1>
        <div className={styles.switch} role="group" aria-label="Period">
          {INSIGHT_WINDOWS.map((window) => (
            <button
              key={window}
              type="button"
              aria-pressed={window === days}
              className={styles.switchButton}
              onClick={() => choose(window)}
            >
              {window} days
            </button>
          ))}
        </div>
      </div>
      <p className={styles.lead}>
        What buyers did with your products in the last {days} days (Lagos time). A buyer who opens the same product again within a minute
        counts once; your own visits never count.
      </p>

      {state.status === 'failed' && (
        <div className={styles.error} role="alert">
          <p>{state.message}</p>
          <Button variant="secondary" onClick={reload}>
            Try again
          </Button>
        </div>
      )}
      {state.status === 'loading' && !insights && <Spinner label="Loading your insights…" />}

      {insights && (
        <div className={state.status === 'loading' ? styles.stale : undefined}>
          {state.status === 'loading' && <Spinner label={`Loading the last ${days} days…`} />}
          {!hasActivity(insights.totals) && (
            <div className={styles.empty}>
              <p>{EMPTY_MESSAGE}</p>
              {insights.products.length === 0 && (
                <Link to={ADD_PRODUCT_PATH} className={buttonClass('primary')}>
                  Add a product
                </Link>
              )}
            </div>
          )}

          <ul className={styles.totals} aria-label={`Totals, last ${insights.days} days`}>
            {totalCards(insights.totals).map((card) => (
              <li key={card.key} className={styles.total} data-total={card.key}>
                <span className={styles.totalLabel}>{card.label}</span>
                <span className={styles.totalValue}>{card.value}</span>
                {card.detail && <span className={styles.totalDetail}>{card.detail}</span>}
              </li>
            ))}
          </ul>

          <InsightsChart daily={insights.daily} days={insights.days} />

          {insights.products.length > 0 && (
            <>
              <h2 className={styles.subtitle}>Per product</h2>
              <ProductInsightsTable products={insights.products} days={insights.days} />
            </>
          )}
        </div>
      )}
    </section>
  );
}
