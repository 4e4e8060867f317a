// /dashboard/insights: what buyers did with the farmer's products over the last 7 or 30 days
// (views, contact clicks, cart adds, requests), in figures, a daily chart and a table per product.
import { Link, useLocation, useNavigate } from '@tuber/shell-contract/router';
import { Button, Spinner, buttonClass } from '@tuber/ui';
import { ADD_PRODUCT_PATH } from '../shared/paths.js';
import { InsightsChart } from './InsightsChart.js';
import { ProductInsightsTable } from './ProductInsightsTable.js';
import { useFarmerT } from '../i18n/t.js';
import { INSIGHT_WINDOWS, emptyMessage, hasActivity, totalCards, windowFromSearch, type InsightWindow } from './insightsView.js';
import { useInsights } from './useInsights.js';
import styles from './insights.module.css';

export function InsightsPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const t = useFarmerT();
  const days = windowFromSearch(location.search);
  const { state, reload } = useInsights(days);
  const insights = state.status === 'loaded' ? state.insights : state.status === 'loading' ? state.previous : undefined;

  const choose = (window: InsightWindow) => {
    if (window !== days) navigate({ search: window === 7 ? '' : `?days=${window}` }, { replace: true });
  };

  return (
    <section className={styles.page} aria-busy={state.status === 'loading'}>
      <div className={styles.head}>
        <h1 className={styles.title}>{t('insights.title')}</h1>
        <div className={styles.switch} role="group" aria-label={t('insights.period')}>
          {INSIGHT_WINDOWS.map((window) => (
            <button
              key={window}
              type="button"
              aria-pressed={window === days}
              className={styles.switchButton}
              onClick={() => choose(window)}
            >
              {t('insights.days', { count: window })}
            </button>
          ))}
        </div>
      </div>
      <p className={styles.lead}>{t('insights.lead', { days })}</p>

      {state.status === 'failed' && (
        <div className={styles.error} role="alert">
          <p>{state.message}</p>
          <Button variant="secondary" onClick={reload}>
            {t('common.try_again')}
          </Button>
        </div>
      )}
      {state.status === 'loading' && !insights && <Spinner label={t('insights.loading')} />}

      {insights && (
        <div className={state.status === 'loading' ? styles.stale : undefined}>
          {state.status === 'loading' && <Spinner label={t('insights.loading_days', { days })} />}
          {!hasActivity(insights.totals) && (
            <div className={styles.empty}>
              <p>{emptyMessage()}</p>
              {insights.products.length === 0 && (
                <Link to={ADD_PRODUCT_PATH} className={buttonClass('primary')}>
                  {t('common.add_a_product')}
                </Link>
              )}
            </div>
          )}

          <ul className={styles.totals} aria-label={t('insights.totals_label', { days: insights.days })}>
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
              <h2 className={styles.subtitle}>{t('insights.per_product')}</h2>
              <ProductInsightsTable products={insights.products} days={insights.days} />
            </>
          )}
        </div>
      )}
    </section>
  );
}
