// /dashboard/productLists/:productId/edit — change a posted product (issue 11): the product form filled in
// from the catalog, its photos shown (removable, reorderable, more addable, still 2 to 5), and on save a
// PATCH with only what changed plus the revision edited; a product changed elsewhere meanwhile (409) is
// offered for reload.
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from '@tuber/ui/router';
import type { Product } from '@tuber/contracts';
import { ApiError, Button, Spinner, buttonClass, todayCalendarDay, useApi, useSession, useToast } from '@tuber/ui';
import { ProductForm } from '../add-product/ProductForm.js';
import { formFromProduct, toProductChange, type ProductFormValues } from '../add-product/productForm.js';
import { usePhotoUploads } from '../add-product/usePhotoUploads.js';
import { uploadedImageIds } from '../add-product/uploads.js';
import { useProductToEdit } from '../edit-product/useProductToEdit.js';
import {
  CHANGED_ELSEWHERE_MESSAGE,
  NOTHING_TO_UPDATE_MESSAGE,
  PRODUCT_UPDATED_MESSAGE,
  messageOf,
  updateFailedMessage,
} from '../shared/messages.js';
import { BUYER_HOME_PATH, PRODUCT_LIST_PATH } from '../shared/paths.js';
import styles from '../add-product/addProduct.module.css';

export const NOT_YOURS_MESSAGE = 'You can only change your own products.';
export const PHOTOS_LOCKED_MESSAGE = 'The photos of this product cannot be changed here; everything else can.';

export default function EditProductPage() {
  const session = useSession();
  const { productId = '' } = useParams();
  if (session.status === 'signed-in' && session.user.userType !== 'farmer') return <Navigate to={BUYER_HOME_PATH} replace />;
  // A new product id is a new page: nothing of the previous one's form carries over.
  return <EditProduct key={productId} productId={productId} farmerId={session.status === 'signed-in' ? session.user.id : null} />;
}

function EditProduct({ productId, farmerId }: { productId: string; farmerId: string | null }) {
  const { state, reload, latest, hasImageIds } = useProductToEdit(productId);

  return (
    <section className={styles.page}>
      <header className={styles.pageHeader}>
        <h1 className={styles.title}>Edit Product</h1>
        <p className={styles.lead}>Change what buyers see: price, stock, status, text and photos (2 to 5; the first is the cover).</p>
      </header>
      {state.status === 'loading' && <Spinner label="Loading the product…" />}
      {state.status === 'not-found' && <Notice text="This product does not exist or has been removed." />}
      {state.status === 'failed' && <Notice text={state.message} onRetry={reload} />}
      {state.status === 'loaded' && farmerId !== null && state.product.farmer_id !== farmerId && <Notice text={NOT_YOURS_MESSAGE} />}
      {state.status === 'loaded' && (farmerId === null || state.product.farmer_id === farmerId) && (
        <EditForm
          key={state.loadedAt}
          product={state.product}
          photosLocked={hasImageIds(state.product) ? undefined : PHOTOS_LOCKED_MESSAGE}
          latest={latest}
          reload={reload}
        />
      )}
    </section>
  );
}

function Notice({ text, onRetry }: { text: string; onRetry?: () => void }) {
  return (
    <div className={styles.notice} role="alert">
      <p>{text}</p>
      <div className={styles.noticeActions}>
        {onRetry && <Button onClick={onRetry}>Try again</Button>}
        <Link to={PRODUCT_LIST_PATH} className={buttonClass(onRetry ? 'secondary' : 'primary')}>
          Back to your products
        </Link>
      </div>
    </div>
  );
}

interface EditFormProps {
  product: Product;
  photosLocked: string | undefined;
  latest: () => Promise<Product>;
  reload: () => void;
}

function EditForm({ product, photosLocked, latest, reload }: EditFormProps) {
  const api = useApi();
  const toast = useToast();
  const navigate = useNavigate();
  const photos = usePhotoUploads();
  const [values, setValues] = useState<ProductFormValues>(() => formFromProduct(product));
  const [saving, setSaving] = useState(false);
  const [changedElsewhere, setChangedElsewhere] = useState(false);
  const conflictNotice = useRef<HTMLDivElement>(null);
  const { showPosted } = photos;

  // The farmer pressed Save at the bottom of the form: bring the offer to reload into view.
  useEffect(() => {
    if (!changedElsewhere) return;
    conflictNotice.current?.scrollIntoView({ block: 'center' });
    conflictNotice.current?.focus();
  }, [changedElsewhere]);

  useEffect(() => {
    const thumbs = product.image_thumbs.length === product.images.length ? product.image_thumbs : product.images;
    showPosted(
      product.images.map((_, index) => ({
        name: `Photo ${index + 1}`,
        image: { image_id: product.image_ids?.[index] ?? '', thumb_url: thumbs[index]! },
      })),
    );
  }, [product, showPosted]);

  async function save() {
    const change = toProductChange(product, values, photosLocked ? null : uploadedImageIds(photos.state));
    if (!change) {
      toast.info(NOTHING_TO_UPDATE_MESSAGE);
      return;
    }
    setSaving(true);
    try {
      await api.patch<Product>(`/catalog/products/${encodeURIComponent(product.product_id)}`, change);
      toast.success(PRODUCT_UPDATED_MESSAGE);
      navigate(PRODUCT_LIST_PATH);
    } catch (error) {
      toast.error(updateFailedMessage(messageOf(error)));
      // A 409 is either a newer revision (changed elsewhere) or a photo already serving another product.
      if (error instanceof ApiError && error.statusCode === 409) {
        const now = await latest().catch(() => null);
        if (now && now.revision !== product.revision) setChangedElsewhere(true);
      }
    } finally {
      setSaving(false);
    }
  }

  return (
    <>
      {changedElsewhere && (
        <div className={styles.notice} role="alert" ref={conflictNotice} tabIndex={-1}>
          <p>{CHANGED_ELSEWHERE_MESSAGE}</p>
          <div className={styles.noticeActions}>
            <Button onClick={reload}>Reload product</Button>
          </div>
        </div>
      )}
      <ProductForm
        label="Edit Product"
        values={values}
        onChange={setValues}
        checkOptions={{ today: todayCalendarDay(), original: product }}
        photos={photos}
        {...(photosLocked ? { photosLocked } : {})}
        busy={saving}
        submitLabel="Save changes"
        onSubmit={() => void save()}
        tuberField={() => (
          <div className={styles.field}>
            <span className={styles.fieldLabel}>Tuber Type</span>
            <p className={styles.readOnly}>
              {product.tuber_type} <span className={styles.hint}>(stays as posted; for another tuber, post a new product)</span>
            </p>
          </div>
        )}
        secondaryAction={
          <Link to={PRODUCT_LIST_PATH} className={buttonClass('secondary')}>
            Cancel
          </Link>
        }
      />
    </>
  );
}
