// The cart at /dashboard/cart (spec §2, §4): items from local storage, quantities, totals, Contact Farmer. Each
// view checks every line against the catalog (issue 11): a changed price, sold out, next harvest or a removed
// product is shown on the line, and the totals count what the buyer can have now. Issue 12: the lines are
// grouped by farmer, and each group is sent to its farmer as an order request (or all at once).
import { Link } from '@tuber/shell-contract/router';
import { Button, buttonClass, formatNaira, todayCalendarDay } from '@tuber/ui';
import { acceptPrice, decrement, increment, removeFromCart, setQuantity, type CartItem } from '../cart/cart.js';
import {
  countsInTotal,
  currentLineTotalKobo,
  currentPriceKobo,
  nextHarvestText,
  priceChangeText,
  summarizeChecked,
  type LineCheck,
} from '../cart/cartCheck.js';
import { cartVisibleTo, updateCart, useCart } from '../cart/cartStore.js';
import { useCartCheck } from '../cart/useCartCheck.js';
import { useCartOwner } from '../cart/useCartOwner.js';
import { SentConfirmation } from '../cart/SentConfirmation.js';
import { fieldId, useSendRequests, type SendRequests } from '../cart/useSendRequests.js';
import { FEED_ROUTE } from '../catalog/types.js';
import { ContactFarmerButton } from '../contact/ContactFarmerButton.js';
import { cartLineChatText } from '../contact/whatsAppText.js';
import type { LineProblemView } from '../orders/problems.js';
import { ORDER_LIMITS } from '../orders/types.js';
import { groupByFarmer, groupTitle, sendableItems, type FarmerGroup, type RequestFormErrors } from '../orders/requestForm.js';
import { useBuyerT } from '../i18n/t.js';
import { unitText } from '../i18n/words.js';
import styles from '../cart/cart.module.css';

const NO_ITEMS: CartItem[] = [];

function LineNotice({ item, check }: { item: CartItem; check: LineCheck }) {
  const t = useBuyerT();
  switch (check.state) {
    case 'checking':
      return (
        <p className={styles.checking} data-testid="cart-item-status">
          {t('cart.checking-line')}
        </p>
      );
    case 'unchecked':
      return (
        <p className={styles.muted} data-testid="cart-item-status">
          {t('cart.unchecked', { message: check.message })}
        </p>
      );
    case 'price-changed':
      return (
        <div className={styles.notice} role="status" data-testid="cart-item-status">
          <p>{priceChangeText(check, t)}</p>
          <button
            type="button"
            className={buttonClass('secondary', styles.small)}
            onClick={() => updateCart((cart) => acceptPrice(cart, item.product_id, check.now))}
          >
            {t('cart.accept-price')}
          </button>
        </div>
      );
    case 'sold-out':
      return (
        <p className={styles.unavailable} data-testid="cart-item-status">
          <span className={styles.badge}>{t('stock.sold-out')}</span> {t('cart.not-counted-note')}
        </p>
      );
    case 'next-harvest':
      return (
        <p className={styles.unavailable} data-testid="cart-item-status">
          <span className={styles.badge}>{nextHarvestText(check, t)}</span> {t('cart.next-harvest-note')}
        </p>
      );
    case 'gone':
      return (
        <p className={styles.unavailable} data-testid="cart-item-status">
          <span className={styles.badge}>{t('stock.gone')}</span> {t('cart.gone-note')}
        </p>
      );
    case 'ok':
      return null;
  }
}

/** What the orders service said about this line when the request was refused, and the one fix. */
function LineProblem({ item, problem, onFixed }: { item: CartItem; problem: LineProblemView; onFixed: () => void }) {
  const { fix } = problem;
  const apply = () => {
    if (fix.kind === 'use-price') updateCart((cart) => acceptPrice(cart, item.product_id, { price: fix.price, unit: fix.unit }));
    else if (fix.kind === 'set-quantity') updateCart((cart) => setQuantity(cart, item.product_id, fix.quantity));
    else updateCart((cart) => removeFromCart(cart, item.product_id));
    onFixed();
  };
  return (
    <div className={styles.problem} role="alert" data-testid="cart-item-problem" data-problem={problem.problem}>
      <p>{problem.text}</p>
      <button type="button" className={buttonClass('secondary', styles.small)} onClick={apply}>
        {fix.label}
      </button>
    </div>
  );
}

function CartItemCard({
  item,
  check,
  problem,
  businessName,
  onChanged,
}: {
  item: CartItem;
  check: LineCheck;
  problem: LineProblemView | undefined;
  businessName: string | null;
  onChanged: () => void;
}) {
  const t = useBuyerT();
  const image = item.images[0];
  const counted = countsInTotal(check);
  const unit = check.state === 'price-changed' ? check.now.unit : item.unit;
  const change = (apply: (cart: CartItem[]) => CartItem[]) => {
    updateCart(apply);
    onChanged();
  };
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
        <h3 className={styles.name}>{item.product_name}</h3>
        <p className={styles.muted}>
          {t('cart.price')} <span data-testid="cart-item-price">{formatNaira(currentPriceKobo(item, check))}</span> {unitText(unit, t)}
        </p>
        {/* A refusal about the price says it with its own fix; the view's notice would repeat it. */}
        {problem && check.state === 'price-changed' && problem.fix.kind === 'use-price' ? null : <LineNotice item={item} check={check} />}
        {problem ? <LineProblem item={item} problem={problem} onFixed={onChanged} /> : null}
        <div className={styles.quantityRow}>
          <button
            type="button"
            className={styles.step}
            aria-label={t('cart.one-less', { name: item.product_name })}
            disabled={item.quantity <= 1}
            onClick={() => change((cart) => decrement(cart, item.product_id))}
          >
            −
          </button>
          <span className={styles.quantity} aria-label={t('cart.quantity')} data-testid="cart-item-quantity">
            {item.quantity}
          </span>
          <button
            type="button"
            className={styles.step}
            aria-label={t('cart.one-more', { name: item.product_name })}
            onClick={() => change((cart) => increment(cart, item.product_id))}
          >
            +
          </button>
        </div>
        <p>
          {t('cart.total')} <strong data-testid="cart-item-total">{formatNaira(currentLineTotalKobo(item, check))}</strong>
          {counted ? null : <span className={styles.muted}> {t('cart.not-counted')}</span>}
        </p>
        <div className={styles.itemActions}>
          <button
            type="button"
            className={buttonClass('secondary', styles.remove)}
            onClick={() => change((cart) => removeFromCart(cart, item.product_id))}
          >
            {t('common.remove')}
          </button>
          <ContactFarmerButton
            farmerId={item.farmer_id}
            className={buttonClass('primary')}
            productId={item.product_id}
            chatText={(business) => cartLineChatText(businessName ?? business, item, t)}
          />
        </div>
      </div>
    </li>
  );
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={`${id}-error`} className={styles.fieldError}>
      {message}
    </p>
  ) : null;
}

const invalid = (id: string, message: string | undefined) =>
  message ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};

/** The request to one farmer: pickup or delivery, address, preferred date, note, phone, and Send request. */
function RequestFormView({
  group,
  business,
  sender,
  sendable,
  anySending,
}: {
  group: FarmerGroup;
  /** The farmer's name as the form names it ("…" while it is on its way). */
  business: string;
  sender: SendRequests;
  sendable: number;
  anySending: boolean;
}) {
  const t = useBuyerT();
  const farmerId = group.farmer_id;
  const form = sender.formOf(farmerId);
  const errors: RequestFormErrors = sender.errorsOf(farmerId);
  const sending = sender.sending.has(farmerId);
  const id = (field: Parameters<typeof fieldId>[1]) => fieldId(farmerId, field);
  const leftOut = group.items.length - sendable;
  return (
    <form
      className={styles.form}
      aria-label={t('request.form', { business })}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void sender.send(group);
      }}
    >
      <h3 className={styles.formTitle}>{t('request.form', { business })}</h3>
      <p className={styles.muted}>
        {t('request.no-payment')}
        {leftOut > 0 ? ` ${t('request.left-out', { count: leftOut })}` : ''}
      </p>
      {sender.blockedNotice(farmerId) ? (
        <p className={styles.problem} role="alert" data-testid="request-blocked">
          {sender.blockedNotice(farmerId)}
        </p>
      ) : null}
      {errors.lines ? (
        <p id={id('lines')} tabIndex={-1} className={styles.fieldError} role="alert">
          {errors.lines}
        </p>
      ) : null}
      <fieldset className={styles.choice}>
        <legend>{t('request.fulfilment')}</legend>
        {(['pickup', 'delivery'] as const).map((option) => (
          <label key={option} className={styles.radio}>
            <input
              type="radio"
              name={id('fulfilment')}
              value={option}
              checked={form.fulfilment === option}
              onChange={() => sender.setForm(farmerId, { fulfilment: option })}
            />
            {option === 'pickup' ? t('request.pickup') : t('request.delivery')}
          </label>
        ))}
      </fieldset>
      {form.fulfilment === 'delivery' ? (
        <div className={styles.field}>
          <label htmlFor={id('address')}>{t('request.address')}</label>
          <textarea
            id={id('address')}
            rows={2}
            maxLength={ORDER_LIMITS.addressMaxLength}
            value={form.address}
            onChange={(event) => sender.setForm(farmerId, { address: event.target.value })}
            {...invalid(id('address'), errors.address)}
          />
          <FieldError id={id('address')} message={errors.address} />
        </div>
      ) : null}
      <div className={styles.fieldRow}>
        <div className={styles.field}>
          <label htmlFor={id('preferred_date')}>{t('request.date')}</label>
          <input
            id={id('preferred_date')}
            type="date"
            min={todayCalendarDay()}
            value={form.preferred_date}
            onChange={(event) => sender.setForm(farmerId, { preferred_date: event.target.value })}
            {...invalid(id('preferred_date'), errors.preferred_date)}
          />
          <FieldError id={id('preferred_date')} message={errors.preferred_date} />
        </div>
        <div className={styles.field}>
          <label htmlFor={id('phone')}>{t('request.phone')}</label>
          <input
            id={id('phone')}
            type="tel"
            autoComplete="tel"
            inputMode="tel"
            value={form.phone}
            onChange={(event) => sender.setForm(farmerId, { phone: event.target.value })}
            {...invalid(id('phone'), errors.phone)}
          />
          <FieldError id={id('phone')} message={errors.phone} />
        </div>
      </div>
      <div className={styles.field}>
        <label htmlFor={id('note')}>{t('request.note')}</label>
        <textarea
          id={id('note')}
          rows={2}
          maxLength={ORDER_LIMITS.noteMaxLength}
          value={form.note}
          onChange={(event) => sender.setForm(farmerId, { note: event.target.value })}
          {...invalid(id('note'), errors.note)}
        />
        <FieldError id={id('note')} message={errors.note} />
      </div>
      <Button type="submit" disabled={anySending} aria-busy={sending} className={styles.sendButton}>
        {sending ? (
          <>
            <span className={styles.buttonSpinner} aria-hidden="true" /> {t('common.sending')}
          </>
        ) : (
          t('request.send')
        )}
      </Button>
    </form>
  );
}

function FarmerGroupSection({
  group,
  checks,
  sender,
  anySending,
}: {
  group: FarmerGroup;
  checks: ReadonlyMap<string, LineCheck>;
  sender: SendRequests;
  anySending: boolean;
}) {
  const t = useBuyerT();
  const headingId = `farmer-${group.farmer_id}-title`;
  const subtotal = summarizeChecked(group.items, checks);
  // The farmer's name comes with their products: until one has answered, the heading says it is on its
  // way rather than showing the bare word "Farmer" and then changing.
  const naming = !group.business_name && group.items.some((item) => (checks.get(item.product_id)?.state ?? 'checking') === 'checking');
  return (
    <section className={styles.group} aria-labelledby={headingId} data-testid="farmer-group" data-farmer-id={group.farmer_id}>
      <header className={styles.groupHeader}>
        <h2 id={headingId} className={naming ? `${styles.groupTitle} ${styles.groupTitleLoading}` : styles.groupTitle} aria-busy={naming}>
          {naming ? t('contact.loading') : groupTitle(group)}
        </h2>
        {/* Products, not the sum of quantities: 3 heaps and 2.5 kg are 2 products, never "5.5 items" (issue 25). */}
        <p className={styles.muted}>{t('cart.group-summary', { count: group.items.length, total: formatNaira(subtotal.totalKobo) })}</p>
      </header>
      <ul className={styles.items}>
        {group.items.map((item) => (
          <CartItemCard
            key={item.product_id}
            item={item}
            check={checks.get(item.product_id) ?? { state: 'checking' }}
            problem={sender.problems.get(item.product_id)}
            businessName={group.business_name}
            onChanged={() => sender.clearProblem(item.product_id)}
          />
        ))}
      </ul>
      <RequestFormView
        group={group}
        business={naming ? '…' : groupTitle(group)}
        sender={sender}
        sendable={sendableItems(group.items, checks).length}
        anySending={anySending}
      />
    </section>
  );
}

export default function CartPage() {
  const t = useBuyerT();
  const userId = useCartOwner();
  const stored = useCart();
  // Someone else's cart (a shared phone) is never shown, even for the moment before it is emptied.
  const cart = cartVisibleTo(userId) ? stored : NO_ITEMS;
  const { checks, businessNames, recheck } = useCartCheck(cart);
  const sender = useSendRequests(checks, recheck);
  const confirmations = sender.sent.map((sent) => (
    <SentConfirmation key={sent.farmerId} sent={sent} onClose={() => sender.dismissSent(sent.farmerId)} />
  ));
  if (cart.length === 0) {
    return (
      <section className={styles.page} aria-labelledby="cart-title">
        <h1 id="cart-title" className={styles.title}>
          {t('cart.title')}
        </h1>
        {confirmations}
        <div className={styles.emptyBox}>
          <p className={styles.empty}>{t('cart.empty')}</p>
          <Link to={FEED_ROUTE} className={buttonClass('primary')}>
            {t('common.browse-products')}
          </Link>
        </div>
      </section>
    );
  }
  const summary = summarizeChecked(cart, checks);
  const groups = groupByFarmer(cart, businessNames);
  const anySending = sender.sending.size > 0;
  return (
    <section className={styles.page} aria-labelledby="cart-title">
      <h1 id="cart-title" className={styles.title}>
        {t('cart.title')}
      </h1>
      {confirmations}
      <div className={styles.layout}>
        <div className={styles.groups}>
          {groups.map((group) => (
            <FarmerGroupSection key={group.farmer_id} group={group} checks={checks} sender={sender} anySending={anySending} />
          ))}
        </div>
        <aside className={styles.summary} aria-labelledby="cart-summary-title" data-testid="cart-summary" aria-busy={summary.checking > 0}>
          <h2 id="cart-summary-title" className={styles.summaryTitle}>
            {t('cart.summary')}
          </h2>
          <dl className={styles.summaryList}>
            <div>
              <dt>{t('cart.total-items')}</dt>
              <dd data-testid="cart-total-items">{summary.totalItems}</dd>
            </div>
            <div>
              <dt>{t('cart.total-price')}</dt>
              <dd data-testid="cart-total-price">{formatNaira(summary.totalKobo)}</dd>
            </div>
          </dl>
          {summary.checking > 0 ? (
            <p className={styles.checking} data-testid="cart-checking">
              {t('cart.checking')}
            </p>
          ) : null}
          {summary.leftOut > 0 ? (
            <p className={styles.muted} data-testid="cart-left-out">
              {t('cart.left-out', { count: summary.leftOut })}
            </p>
          ) : null}
          {groups.length > 1 ? (
            <div className={styles.sendAll}>
              <p className={styles.muted}>{t('cart.farmers', { count: groups.length })}</p>
              <Button onClick={() => void sender.sendAll(groups)} disabled={anySending} aria-busy={anySending}>
                {anySending ? (
                  <>
                    <span className={styles.buttonSpinner} aria-hidden="true" /> {t('common.sending')}
                  </>
                ) : (
                  t('cart.send-all')
                )}
              </Button>
            </div>
          ) : null}
        </aside>
      </div>
    </section>
  );
}
