// Product detail at /dashboard/buyer/:productId (spec §2): seller, photos, nutrition, the texts, Add to cart, Contact Farmer;
// issue 12: Chat on WhatsApp, and the view counted for the farmer's insights.
import { useEffect, useRef } from 'react';
import { Link, useParams } from '@tuber/ui/router';
import {
  availability,
  Button,
  buttonClass,
  pricePerKgText,
  productPriceText,
  quantityText,
  shortAge,
  Spinner,
  unitOf,
  useApi,
  useToast,
} from '@tuber/ui';
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
import styles from '../detail/detail.module.css';

export default function ProductDetailPage() {
  const { productId } = useParams<{ productId: string }>();
  const state = useProduct(productId);
  const toast = useToast();
  const api = useApi();
  useCartOwner();

  // One view per product opened (StrictMode's second mount and re-renders are not views).
  const counted = useRef<string | null>(null);
  const viewedId = state.status === 'ready' ? state.product.product_id : null;
  useEffect(() => {
    if (!viewedId || counted.current === viewedId) return;
    counted.current = viewedId;
    sendActivity(api, viewedId, 'view');
  }, [api, viewedId]);

  if (state.status === 'loading') return <Spinner label="Loading product…" />;
  if (state.status === 'not-found') {
    return (
      <section className={styles.page}>
        <div className={styles.notFound} role="alert">
          <h1 className={styles.title}>Product not found</h1>
          <p className={styles.muted}>This product is no longer available: the farmer may have removed it.</p>
          <Link to="/dashboard/buyer" className={buttonClass('primary')}>
            Back to products
          </Link>
        </div>
      </section>
    );
  }
  if (state.status === 'error') {
    return (
      <section className={styles.page}>
        <p role="alert" className={styles.error}>
          Error: {state.message}
        </p>
        <Link to="/dashboard/buyer">Back to products</Link>
      </section>
    );
  }

  const { product } = state;
  const perKg = pricePerKgText(product);
  const stock = availability(product);
  const unit = unitOf(product);
  return (
    <article className={styles.page} data-testid="product-detail">
      <Link to="/dashboard/buyer" className={styles.back}>
        ← All products
      </Link>
      <header className={styles.seller}>
        <div>
          <p className={styles.business}>{product.business_name}</p>
          <p className={styles.muted}>{product.location}</p>
        </div>
        <time dateTime={product.created_at} className={styles.muted}>
          {shortAge(product.created_at)}
        </time>
      </header>

      <div className={styles.layout}>
        <Carousel images={product.images} cards={product.image_cards} name={product.product_name} />
        <div className={styles.summary}>
          <h1 className={styles.title}>{product.product_name}</h1>
          <p className={styles.type}>Type: {product.tuber_type}</p>
          <p className={styles.price} data-testid="product-price">
            {productPriceText(product)}
          </p>
          {perKg ? <p className={styles.perKg}>{perKg}</p> : null}
          <p>
            {stock.kind === 'available' ? (
              stock.text ? (
                <span className={styles.badge} data-testid="product-stock">
                  {stock.text}
                  {unit !== 'kg' && product.kg > 0 ? ` (about ${quantityText(product.kg, 'kg')})` : ''}
                </span>
              ) : null
            ) : (
              <span className={stock.kind === 'sold-out' ? styles.soldOut : styles.nextHarvest} data-testid="product-status">
                {stock.text}
              </span>
            )}
          </p>
          {stock.kind === 'next-harvest' ? (
            <p className={styles.muted}>Not in stock yet: contact the farmer to ask about this harvest.</p>
          ) : null}
          <div className={styles.actions}>
            {stock.kind === 'available' ? (
              <Button onClick={() => addProductToCart(product, toast, api)}>Add to cart</Button>
            ) : (
              <Button disabled title="This product cannot be bought now">
                Add to cart
              </Button>
            )}
            <ContactFarmerButton
              farmerId={product.farmer_id}
              className={buttonClass('secondary')}
              productId={product.product_id}
              chatText={(business) => productChatText(business, chatProduct(product))}
            />
            <ProductWhatsApp product={product} />
          </div>
        </div>
      </div>

      <NutritionChart nutrition={product.nutrition} />

      <section className={styles.section} aria-labelledby="description-title">
        <h2 id="description-title" className={styles.sectionTitle}>
          Description
        </h2>
        <p className={styles.text}>{product.description}</p>
      </section>
      <section className={styles.section} aria-labelledby="health-title">
        <h2 id="health-title" className={styles.sectionTitle}>
          Health Benefit
        </h2>
        <p className={styles.text}>{product.health?.trim() ? product.health : 'information not provided'}</p>
      </section>
      <section className={styles.section} aria-labelledby="cultural-title">
        <h2 id="cultural-title" className={styles.sectionTitle}>
          Cultural Relevance
        </h2>
        <p className={styles.text}>{product.cultural}</p>
      </section>
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
function ProductWhatsApp({ product }: { product: Product }) {
  const contact = useFarmerContact(product.farmer_id, { quiet: true });
  if (contact.status !== 'ready') return null;
  return (
    <WhatsAppLink
      phone={contact.contact.phone}
      text={productChatText(contact.contact.business_name || product.business_name, chatProduct(product))}
      productId={product.product_id}
    />
  );
}
