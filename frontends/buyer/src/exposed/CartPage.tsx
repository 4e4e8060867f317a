// The cart at /dashboard/cart (spec §2, §4): items from local storage, quantities, totals, Contact Farmer. No
// checkout. Each view checks every line against the catalog (issue 11): a changed price, sold out, next
// harvest or a removed product is shown on the line, and the totals count what the buyer can have now.
import { buttonClass, formatNaira, unitLabel } from '@tuber/ui';
import { acceptPrice, decrement, increment, removeFromCart, type CartItem } from '../cart/cart.js';
import {
  countsInTotal,
  currentLineTotalKobo,
  currentPriceKobo,
  priceChangeText,
  summarizeChecked,
  type LineCheck,
} from '../cart/cartCheck.js';
import { updateCart, useCart } from '../cart/cartStore.js';
import { useCartCheck } from '../cart/useCartCheck.js';
import { ContactFarmerButton } from '../contact/ContactFarmerButton.js';
import styles from '../cart/cart.module.css';

function LineNotice({ item, check }: { item: CartItem; check: LineCheck }) {
  switch (check.state) {
    case 'checking':
      return (
        <p className={styles.checking} data-testid="cart-item-status">
          Checking price and stock…
        </p>
      );
    case 'unchecked':
      return (
        <p className={styles.muted} data-testid="cart-item-status">
          Could not check the current price ({check.message}); showing the price when added.
        </p>
      );
    case 'price-changed':
      return (
        <div className={styles.notice} role="status" data-testid="cart-item-status">
          <p>{priceChangeText(check)}</p>
          <button
            type="button"
            className={buttonClass('secondary', styles.small)}
            onClick={() => updateCart((cart) => acceptPrice(cart, item.product_id, check.now))}
          >
            Accept new price
          </button>
        </div>
      );
    case 'sold-out':
      return (
        <p className={styles.unavailable} data-testid="cart-item-status">
          <span className={styles.badge}>Sold out</span> Not counted in the total.
        </p>
      );
    case 'next-harvest':
      return (
        <p className={styles.unavailable} data-testid="cart-item-status">
          <span className={styles.badge}>{check.text}</span> Not counted in the total; you can still contact the farmer.
        </p>
      );
    case 'gone':
      return (
        <p className={styles.unavailable} data-testid="cart-item-status">
          <span className={styles.badge}>No longer available</span> The farmer removed this product.
        </p>
      );
    case 'ok':
      return null;
  }
}

function CartItemCard({ item, check }: { item: CartItem; check: LineCheck }) {
  const image = item.images[0];
  const counted = countsInTotal(check);
  const unit = check.state === 'price-changed' ? check.now.unit : item.unit;
  return (
    <li
      className={counted ? styles.item : `${styles.item} ${styles.itemLeftOut}`}
      data-testid="cart-item"
      data-product-id={item.product_id}
      data-check={check.state}
    >
      {image ? (
        <img className={styles.image} src={image} alt="" width={160} height={120} loading="lazy" decoding="async" />
      ) : (
        <span className={styles.image} />
      )}
      <div className={styles.details}>
        <h2 className={styles.name}>{item.product_name}</h2>
        <p className={styles.muted}>
          Price: <span data-testid="cart-item-price">{formatNaira(currentPriceKobo(item, check))}</span> {unitLabel(unit)}
        </p>
        <LineNotice item={item} check={check} />
        <div className={styles.quantityRow}>
          <button
            type="button"
            className={styles.step}
            aria-label={`One less ${item.product_name}`}
            disabled={item.quantity <= 1}
            onClick={() => updateCart((cart) => decrement(cart, item.product_id))}
          >
            −
          </button>
          <span className={styles.quantity} aria-label="Quantity" data-testid="cart-item-quantity">
            {item.quantity}
          </span>
          <button
            type="button"
            className={styles.step}
            aria-label={`One more ${item.product_name}`}
            onClick={() => updateCart((cart) => increment(cart, item.product_id))}
          >
            +
          </button>
        </div>
        <p>
          Total: <strong data-testid="cart-item-total">{formatNaira(currentLineTotalKobo(item, check))}</strong>
          {counted ? null : <span className={styles.muted}> (not counted)</span>}
        </p>
        <div className={styles.itemActions}>
          <button
            type="button"
            className={buttonClass('secondary', styles.remove)}
            onClick={() => updateCart((cart) => removeFromCart(cart, item.product_id))}
          >
            Remove
          </button>
          <ContactFarmerButton farmerId={item.farmer_id} className={buttonClass('primary')} />
        </div>
      </div>
    </li>
  );
}

export default function CartPage() {
  const cart = useCart();
  const checks = useCartCheck(cart);
  if (cart.length === 0) {
    return (
      <section className={styles.page}>
        <p className={styles.empty}>There is no item in the cart</p>
      </section>
    );
  }
  const summary = summarizeChecked(cart, checks);
  return (
    <section className={styles.page} aria-labelledby="cart-title">
      <h1 id="cart-title" className={styles.title}>
        Cart
      </h1>
      <div className={styles.layout}>
        <ul className={styles.items}>
          {cart.map((item) => (
            <CartItemCard key={item.product_id} item={item} check={checks.get(item.product_id) ?? { state: 'checking' }} />
          ))}
        </ul>
        <aside className={styles.summary} aria-labelledby="cart-summary-title" data-testid="cart-summary" aria-busy={summary.checking > 0}>
          <h2 id="cart-summary-title" className={styles.summaryTitle}>
            Cart Summary
          </h2>
          <dl className={styles.summaryList}>
            <div>
              <dt>Total Items</dt>
              <dd data-testid="cart-total-items">{summary.totalItems}</dd>
            </div>
            <div>
              <dt>Total Price</dt>
              <dd data-testid="cart-total-price">{formatNaira(summary.totalKobo)}</dd>
            </div>
          </dl>
          {summary.checking > 0 ? (
            <p className={styles.checking} data-testid="cart-checking">
              Checking current prices and stock…
            </p>
          ) : null}
          {summary.leftOut > 0 ? (
            <p className={styles.muted} data-testid="cart-left-out">
              {summary.leftOut === 1 ? '1 item is' : `${summary.leftOut} items are`} not counted: sold out or no longer available.
            </p>
          ) : null}
        </aside>
      </div>
    </section>
  );
}
