// One of the farmer's products in "All Product List": thumbnails, name, a 10-word description with
// View more / View less, price per unit and per kg, stock in the unit, status, tuber type, short age, Edit
// and Delete.
import { useState } from 'react';
import { Link } from '@tuber/shell-contract/router';
import type { Product } from '@tuber/contracts';
import { Button, buttonClass, momentWords } from '@tuber/ui';
import { editProductPath } from '../shared/paths.js';
import { useFarmerT } from '../i18n/t.js';
import { tuberName } from '../i18n/words.js';
import { productCardText } from './productCardText.js';
import styles from './productList.module.css';

export function ProductCard({ product, onDelete }: { product: Product; onDelete: (product: Product) => void }) {
  const [expanded, setExpanded] = useState(false);
  const t = useFarmerT();
  const text = productCardText(product);
  const thumbs = product.image_thumbs.length > 0 ? product.image_thumbs : product.images;

  return (
    <article className={styles.card} aria-labelledby={`product-${product.product_id}`} data-product-id={product.product_id}>
      <ul className={styles.thumbs} aria-label={t('list.photos')}>
        {thumbs.map((url, index) => (
          <li key={url}>
            <img
              src={url}
              alt={t('list.photo_alt', { name: product.product_name, n: index + 1 })}
              className={styles.thumb}
              loading="lazy"
              width={96}
              height={96}
            />
          </li>
        ))}
      </ul>
      <div className={styles.cardBody}>
        <div className={styles.cardTop}>
          <h2 id={`product-${product.product_id}`} className={styles.name}>
            {product.product_name}
          </h2>
          <span className={styles.age} title={momentWords(product.created_at)}>
            {text.age}
          </span>
        </div>
        <p className={styles.description}>
          {expanded || !text.descriptionCut ? product.description : `${text.descriptionPreview}…`}{' '}
          {text.descriptionCut && (
            <button type="button" className={styles.more} onClick={() => setExpanded((open) => !open)} aria-expanded={expanded}>
              {expanded ? t('list.view_less') : t('list.view_more')}
            </button>
          )}
        </p>
        <p className={styles.price}>
          {text.price}
          {text.perKg && <span className={styles.perKg}> · {text.perKg}</span>}
        </p>
        <p className={styles.status} data-status={text.status}>
          {text.statusText}
        </p>
        {product.withheld ? (
          // Moderation (issue 26): buyers no longer see it; the farmer is told why, in place.
          <div className={styles.withheld} role="note" data-testid="product-withheld">
            <strong>{product.withheld.hidden ? t('list.withheld_hidden') : t('list.withheld_suspended')}</strong>
            {product.withheld.reason ? <span> {t('list.withheld_reason', { reason: product.withheld.reason })}</span> : null}
          </div>
        ) : null}
        <dl className={styles.facts}>
          <div>
            <dt>{t('list.stock')}</dt>
            <dd>{text.quantity}</dd>
          </div>
          <div>
            <dt>{t('list.tuber_type')}</dt>
            <dd>{tuberName(product.tuber_type)}</dd>
          </div>
        </dl>
        <div className={styles.cardActions}>
          <Link
            to={editProductPath(product.product_id)}
            className={buttonClass('primary', styles.edit)}
            aria-label={t('list.edit_name', { name: product.product_name })}
          >
            {t('list.edit')}
          </Link>
          <Button
            variant="secondary"
            className={styles.delete}
            onClick={() => onDelete(product)}
            aria-label={t('list.delete_name', { name: product.product_name })}
          >
            {t('list.delete')}
          </Button>
        </div>
      </div>
    </article>
  );
}
