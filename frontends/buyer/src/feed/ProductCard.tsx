import { Link } from '@tuber/ui/router';
import { availability, firstWords, pricePerKgText, productPriceText, shortAge } from '@tuber/ui';
import { productDetailRoute, type Product } from '../catalog/types.js';
import styles from './feed.module.css';

export const FEED_PREVIEW_WORDS = 20;

/** One card of the buyer feed (spec §2). `eager` for the first row, which is on screen at once. */
export function ProductCard({ product, eager = false }: { product: Product; eager?: boolean }) {
  const to = productDetailRoute(product.product_id);
  const image = product.image_cards[0] ?? product.images[0];
  const preview = firstWords(product.description, FEED_PREVIEW_WORDS);
  const perKg = pricePerKgText(product);
  const stock = availability(product);
  return (
    <article className={styles.card} data-testid="product-card" data-product-id={product.product_id} data-status={stock.kind}>
      <header className={styles.cardHeader}>
        <div className={styles.seller}>
          <span className={styles.business}>{product.business_name}</span>
          <span className={styles.location}>{product.location}</span>
        </div>
        <time className={styles.age} dateTime={product.created_at} title={new Date(product.created_at).toLocaleString()}>
          {shortAge(product.created_at, { suffix: false })}
        </time>
      </header>
      <Link to={to} className={styles.imageLink} tabIndex={-1} aria-hidden="true">
        {image ? (
          <img
            className={styles.image}
            src={image}
            alt=""
            width={480}
            height={360}
            loading={eager ? 'eager' : 'lazy'}
            decoding="async"
            {...(eager ? { fetchPriority: 'high' as const } : {})}
          />
        ) : (
          <span className={styles.noImage}>No image</span>
        )}
      </Link>
      <div className={styles.cardBody}>
        <h2 className={styles.name}>
          <Link to={to}>{product.product_name}</Link>
        </h2>
        <p className={styles.price} data-testid="product-price">
          {productPriceText(product)}
        </p>
        {perKg ? <p className={styles.perKg}>{perKg}</p> : null}
        {stock.kind === 'available' ? (
          stock.text ? (
            <p className={styles.stock}>{stock.text}</p>
          ) : null
        ) : (
          <p>
            <span className={stock.kind === 'sold-out' ? styles.soldOut : styles.nextHarvest} data-testid="product-status">
              {stock.text}
            </span>
          </p>
        )}
        <p className={styles.description}>
          {preview.text}
          {preview.isCut ? '… ' : ' '}
          <Link to={to} className={styles.seeMore} aria-label={`see more about ${product.product_name}`}>
            see more
          </Link>
        </p>
      </div>
    </article>
  );
}
