// The cart at /dashboard/cart (spec §2, §4): items from local storage, quantities, totals, Contact Farmer. No checkout.
import { buttonClass, formatNaira } from '@tuber/ui';
import { decrement, increment, lineTotalKobo, priceKobo, removeFromCart, summarize, type CartItem } from '../cart/cart.js';
import { updateCart, useCart } from '../cart/cartStore.js';
import { ContactFarmerButton } from '../contact/ContactFarmerButton.js';
import styles from '../cart/cart.module.css';

function CartItemCard({ item }: { item: CartItem }) {
  const image = item.images[0];
  return (
    <li className={styles.item} data-testid="cart-item" data-product-id={item.product_id}>
      {image ? (
        <img className={styles.image} src={image} alt="" width={160} height={120} loading="lazy" decoding="async" />
      ) : (
        <span className={styles.image} />
      )}
      <div className={styles.details}>
        <h2 className={styles.name}>{item.product_name}</h2>
        <p className={styles.muted}>
          Price: <span data-testid="cart-item-price">{formatNaira(priceKobo(item))}</span>
        </p>
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
          Total: <strong data-testid="cart-item-total">{formatNaira(lineTotalKobo(item))}</strong>
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
  if (cart.length === 0) {
    return (
      <section className={styles.page}>
        <p className={styles.empty}>There is no item in the cart</p>
      </section>
    );
  }
  const summary = summarize(cart);
  return (
    <section className={styles.page} aria-labelledby="cart-title">
      <h1 id="cart-title" className={styles.title}>
        Cart
      </h1>
      <div className={styles.layout}>
        <ul className={styles.items}>
          {cart.map((item) => (
            <CartItemCard key={item.product_id} item={item} />
          ))}
        </ul>
        <aside className={styles.summary} aria-labelledby="cart-summary-title" data-testid="cart-summary">
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
        </aside>
      </div>
    </section>
  );
}
