// Product detail at /dashboard/buyer/:productId (spec §2): seller, photos, nutrition, the texts, Add to cart, Contact Farmer;
// issue 12: Chat on WhatsApp, and the view counted for the farmer's insights.
import { useEffect, useRef } from 'react';
import { Link, useParams } from '@tuber/shell-contract/router';
import { useApi, useToast } from '@tuber/shell-contract';
import { Button, buttonClass, ReportAction, Spinner, unitOf } from '@tuber/ui';
import { addProductToCart } from '../cart/addProductToCart.js';
import { useCartOwner } from '../cart/useCartOwner.js';
import type { Product } from '../catalog/types.js';
import { ContactFarmerButton } from '../contact/ContactFarmerButton.js';
import { useFarmerContact } from '../contact/useFarmerContact.js';
import { WhatsAppLink } from '../contact/WhatsAppLink.js';
import { productChatText } from '../contact/whatsAppText.js';
import { sendActivity } from '../orders/activity.js';
import { Carousel } from '../detail/Carousel.js';
import { NutritionChart } from '../detail/NutritionChart.js';
import { useProduct } from '../detail/useProduct.js';
import { useBuyerT, type T } from '../i18n/t.js';
import { PriceMarkerOf } from '../prices/PriceMarkerOf.js';
import { usePriceNow } from '../prices/pricesNow.js';
import { FarmerTrustSection } from '../trust/FarmerTrustSection.js';
import { RatingBadge } from '../trust/RatingBadge.js';
import { farmerPagePath } from '../trust/FarmerView.js';
import { ageWords, pricePerKgWords, productPriceWords, quantityWords, stockWords, tuberName } from '../i18n/words.js';
import styles from '../detail/detail.module.css';

export default function ProductDetailPage() {
  const { productId } = useParams<{ productId: string }>();
  const t = useBuyerT();
  const state = useProduct(productId, t);
  const toast = useToast();
  const api = useApi();
  useCartOwner();

  // One view per product opened (StrictMode's second mount and re-renders are not views).
  const counted = useRef<string | null>(null);
  const viewedId = state.status === 'ready' ? state.product.product_id : null;
  // The tuber's figures this week, city-wide as on the feed's cards (issue 27): the same marker in both places.
  const priceNow = usePriceNow(state.status === 'ready' ? state.product.tuber_type : '');
  useEffect(() => {
    if (!viewedId || counted.current === viewedId) return;
    counted.current = viewedId;
    sendActivity(api, viewedId, 'view');
  }, [api, viewedId]);

  if (state.status === 'loading') return <Spinner label={t('product.loading')} />;
  if (state.status === 'not-found') {
    return (
      <section className={styles.page}>
        <div className={styles.notFound} role="alert">
          <h1 className={styles.title}>{t('product.not-found')}</h1>
          <p className={styles.muted}>{t('product.not-found-text')}</p>
          <Link to="/dashboard/buyer" className={buttonClass('primary')}>
            {t('product.back')}
          </Link>
        </div>
      </section>
    );
  }
  if (state.status === 'error') {
    return (
      <section className={styles.page}>
        <p role="alert" className={styles.error}>
          {t('common.error', { message: state.message })}
        </p>
        <Link to="/dashboard/buyer">{t('product.back')}</Link>
      </section>
    );
  }

  const { product } = state;
  const perKg = pricePerKgWords(product, t);
  const stock = stockWords(product, t);
  const unit = unitOf(product);
  return (
    <article className={styles.page} data-testid="product-detail">
      <Link to="/dashboard/buyer" className={styles.back}>
        {t('product.all')}
      </Link>
      <header className={styles.seller}>
        <div>
          <p className={styles.business}>{product.business_name}</p>
          <p className={styles.muted}>{product.location}</p>
          <RatingBadge rating={product.farmer_rating} />
          <p>
            <Link to={farmerPagePath(product.farmer_id)} data-testid="farm-link">
              {t('farm.see', { business: product.business_name })}
            </Link>
          </p>
        </div>
        <time dateTime={product.created_at} className={styles.muted}>
          {ageWords(product.created_at, {}, t)}
        </time>
      </header>
      <ReportAction api={api} kind="product" targetId={product.product_id} />

      <div className={styles.layout}>
        <Carousel images={product.images} cards={product.image_cards} name={product.product_name} />
        <div className={styles.summary}>
          <h1 className={styles.title}>{product.product_name}</h1>
          <p className={styles.type}>{t('product.type', { type: tuberName(product.tuber_type, t) })}</p>
          <p className={styles.price} data-testid="product-price">
            {productPriceWords(product, t)}
          </p>
          {perKg ? <p className={styles.perKg}>{perKg}</p> : null}
          <PriceMarkerOf product={product} now={priceNow} />
          <p>
            {stock.kind === 'available' ? (
              stock.text ? (
                <span className={styles.badge} data-testid="product-stock">
                  {unit !== 'kg' && product.kg > 0
                    ? t('product.stock-about', { stock: stock.text, kg: quantityWords(product.kg, 'kg', t) })
                    : stock.text}
                </span>
              ) : null
            ) : (
              <span className={stock.kind === 'sold-out' ? styles.soldOut : styles.nextHarvest} data-testid="product-status">
                {stock.text}
              </span>
            )}
          </p>
          {stock.kind === 'next-harvest' ? <p className={styles.muted}>{t('product.next-harvest-hint')}</p> : null}
          <div className={styles.actions}>
            {stock.kind === 'available' ? (
              <Button onClick={() => addProductToCart(product, toast, api, t)}>{t('product.add-to-cart')}</Button>
            ) : (
              <Button disabled title={t('product.cannot-buy')}>
                {t('product.add-to-cart')}
              </Button>
            )}
            <ContactFarmerButton
              farmerId={product.farmer_id}
              className={buttonClass('secondary')}
              productId={product.product_id}
              chatText={(business) => productChatText(business, chatProduct(product), t)}
            />
            <ProductWhatsApp product={product} t={t} />
          </div>
        </div>
      </div>

      <NutritionChart nutrition={product.nutrition} />

      <section className={styles.section} aria-labelledby="description-title">
        <h2 id="description-title" className={styles.sectionTitle}>
          {t('product.description')}
        </h2>
        <p className={styles.text}>{product.description}</p>
      </section>
      <section className={styles.section} aria-labelledby="health-title">
        <h2 id="health-title" className={styles.sectionTitle}>
          {t('product.health')}
        </h2>
        <p className={styles.text}>{product.health?.trim() ? product.health : t('product.not-provided')}</p>
      </section>
      <section className={styles.section} aria-labelledby="cultural-title">
        <h2 id="cultural-title" className={styles.sectionTitle}>
          {t('product.cultural')}
        </h2>
        <p className={styles.text}>{product.cultural}</p>
      </section>
      <FarmerTrustSection farmerId={product.farmer_id} businessName={product.business_name} />
    </article>
  );
}

const chatProduct = (product: Product) => ({
  product_name: product.product_name,
  price: product.price,
  unit: unitOf(product),
  tuber_size: product.tuber_size ?? null,
});

/** The farmer's WhatsApp, once their contact card is in (left out if it cannot be had or normalised). */
function ProductWhatsApp({ product, t }: { product: Product; t: T }) {
  const contact = useFarmerContact(product.farmer_id, { quiet: true });
  if (contact.status !== 'ready') return null;
  return (
    <WhatsAppLink
      phone={contact.contact.phone}
      text={productChatText(contact.contact.business_name || product.business_name, chatProduct(product), t)}
      productId={product.product_id}
    />
  );
}
