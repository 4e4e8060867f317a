// One row per product: views, each kind of contact click, cart adds and requests. On a phone each
// row becomes a small card (the column names go next to the numbers), so nothing scrolls sideways;
// the explicit roles keep it a table for screen readers once CSS has made its parts blocks.
import type { Insights } from '@tuber/contracts';
import { useFarmerT } from '../i18n/t.js';
import { PRODUCT_COLUMNS } from './insightsView.js';
import styles from './insights.module.css';

export function ProductInsightsTable({ products, days }: { products: Insights['products']; days: number }) {
  const t = useFarmerT();
  return (
    <table className={styles.products} role="table">
      <caption className={styles.visuallyHidden}>{t('insights.products_caption', { days })}</caption>
      <thead>
        <tr>
          <th scope="col">{t('insights.product')}</th>
          {PRODUCT_COLUMNS.map((c) => (
            <th scope="col" key={c.key}>
              {t(c.label)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {products.map((product) => (
          <tr key={product.product_id} role="row" data-product-id={product.product_id}>
            <th scope="row" role="rowheader" className={styles.productName}>
              {product.product_name}
            </th>
            {PRODUCT_COLUMNS.map((c) => (
              <td key={c.key} role="cell" data-label={t(c.label)} data-count={c.key}>
                {product.counts[c.key]}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
