// /dashboard/productLists/:productId/edit — change a posted product (issue 11): the product form filled in
// from the catalog, its photos shown (removable, reorderable, more addable, still 2 to 5), and on save a
// PATCH with only what changed plus the revision edited; a product changed elsewhere meanwhile (409) is
// offered for reload.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from '@tuber/shell-contract/router';
import type { Product } from '@tuber/contracts';
import { ApiError, useApi, useSession, useToast } from '@tuber/shell-contract';
import { Button, Spinner, buttonClass, todayCalendarDay } from '@tuber/ui';
import { ProductForm } from '../add-product/ProductForm.js';
import type { ProductDraft } from '../add-product/draft.js';
import { formFromProduct, toProductChange, type ProductFormValues } from '../add-product/productForm.js';
import { usePhotoUploads } from '../add-product/usePhotoUploads.js';
import { useProductDraft } from '../add-product/useProductDraft.js';
import { uploadedImageIds } from '../add-product/uploads.js';
import { useProductToEdit } from '../edit-product/useProductToEdit.js';
import { useFarmerT } from '../i18n/t.js';
import { tuberName } from '../i18n/words.js';
import {
  changedElsewhereMessage,
  messageOf,
  nothingToUpdateMessage,
  offlineSaveMessage,
  productUpdatedMessage,
  updateFailedMessage,
} from '../shared/messages.js';
import { isOffline } from '../shared/network.js';
import { BUYER_HOME_PATH, PRODUCT_LIST_PATH } from '../shared/paths.js';
import { useFarmProfile } from '../shared/useFarmerTubers.js';
import styles from '../add-product/addProduct.module.css';

export default function EditProductPage() {
  const session = useSession();
  const { productId = '' } = useParams();
  if (session.status === 'signed-in' && session.user.userType !== 'farmer') return <Navigate to={BUYER_HOME_PATH} replace />;
  // A new product id is a new page: nothing of the previous one's form carries over.
  return <EditProduct key={productId} productId={productId} farmerId={session.status === 'signed-in' ? session.user.id : null} />;
}

function EditProduct({ productId, farmerId }: { productId: string; farmerId: string | null }) {
  const { state, reload, latest, hasImageIds } = useProductToEdit(productId);
  const t = useFarmerT();

  return (
    <section className={styles.page}>
      <header className={styles.pageHeader}>
        <h1 className={styles.title}>{t('edit.title')}</h1>
        <p className={styles.lead}>{t('edit.lead')}</p>
      </header>
      {state.status === 'loading' && <Spinner label={t('edit.loading')} />}
      {state.status === 'not-found' && <Notice text={t('edit.not_found')} />}
      {state.status === 'failed' && <Notice text={state.message} onRetry={reload} />}
      {state.status === 'loaded' && farmerId !== null && state.product.farmer_id !== farmerId && <Notice text={t('edit.not_yours')} />}
      {state.status === 'loaded' && (farmerId === null || state.product.farmer_id === farmerId) && (
        <EditForm
          key={state.loadedAt}
          product={state.product}
          farmerId={farmerId}
          photosLocked={hasImageIds(state.product) ? undefined : t('photos.locked')}
          latest={latest}
          reload={reload}
        />
      )}
    </section>
  );
}

function Notice({ text, onRetry }: { text: string; onRetry?: () => void }) {
  const t = useFarmerT();
  return (
    <div className={styles.notice} role="alert">
      <p>{text}</p>
      <div className={styles.noticeActions}>
        {onRetry && <Button onClick={onRetry}>{t('common.try_again')}</Button>}
        <Link to={PRODUCT_LIST_PATH} className={buttonClass(onRetry ? 'secondary' : 'primary')}>
          {t('edit.back')}
        </Link>
      </div>
    </div>
  );
}

interface EditFormProps {
  product: Product;
  farmerId: string | null;
  photosLocked: string | undefined;
  latest: () => Promise<Product>;
  reload: () => void;
}

function EditForm({ product, farmerId, photosLocked, latest, reload }: EditFormProps) {
  const api = useApi();
  const t = useFarmerT();
  const toast = useToast();
  const navigate = useNavigate();
  const photos = usePhotoUploads();
  const farm = useFarmProfile();
  const baseline = useMemo(() => formFromProduct(product), [product]);
  const [values, setValues] = useState<ProductFormValues>(baseline);
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
        name: t('photos.photo_n', { n: index + 1 }),
        image: { image_id: product.image_ids?.[index] ?? '', thumb_url: thumbs[index]! },
      })),
    );
    // The tiles' names are set once, in the language of the moment.
  }, [product, showPosted]); // eslint-disable-line react-hooks/exhaustive-deps

  // What was typed here is kept (per farmer, product and revision) until it is saved.
  const restore = useCallback(
    (draft: ProductDraft) => {
      setValues(draft.values);
      if (!photosLocked && draft.photos.length > 0) showPosted(draft.photos);
    },
    [photosLocked, showPosted],
  );
  const draft = useProductDraft({
    farmerId,
    productId: product.product_id,
    revision: product.revision,
    baseline,
    baselinePhotos: (product.image_ids ?? []).join(),
    values,
    photos: photos.state,
    onRestore: restore,
  });

  async function save() {
    const change = toProductChange(product, values, photosLocked ? null : uploadedImageIds(photos.state));
    if (!change) {
      toast.info(nothingToUpdateMessage());
      draft.clear();
      return;
    }
    if (isOffline()) {
      toast.error(offlineSaveMessage());
      return;
    }
    setSaving(true);
    try {
      await api.patch<Product>(`/catalog/products/${encodeURIComponent(product.product_id)}`, change);
      draft.clear();
      toast.success(productUpdatedMessage());
      navigate(PRODUCT_LIST_PATH);
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 0) toast.error(offlineSaveMessage());
      else toast.error(updateFailedMessage(messageOf(error)));
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
      {draft.restored && (
        <div className={styles.draftNotice} role="status" data-testid="draft-restored">
          <p>{t('offline.draft_restored')}</p>
          <Button
            variant="secondary"
            onClick={() => {
              draft.clear();
              reload();
            }}
          >
            {t('offline.discard_draft')}
          </Button>
        </div>
      )}
      {changedElsewhere && (
        <div className={styles.notice} role="alert" ref={conflictNotice} tabIndex={-1}>
          <p>{changedElsewhereMessage()}</p>
          <div className={styles.noticeActions}>
            <Button
              onClick={() => {
                draft.clear();
                reload();
              }}
            >
              {t('edit.reload')}
            </Button>
          </div>
        </div>
      )}
      <ProductForm
        label={t('edit.title')}
        values={values}
        onChange={setValues}
        checkOptions={{ today: todayCalendarDay(), original: product }}
        photos={photos}
        {...(photosLocked ? { photosLocked } : {})}
        busy={saving}
        submitLabel={t('common.save_changes')}
        onSubmit={() => void save()}
        farmLocation={farm.location}
        tuberField={() => (
          <div className={styles.field}>
            <span className={styles.fieldLabel}>{t('form.tuber_type')}</span>
            <p className={styles.readOnly}>
              {tuberName(product.tuber_type)} <span className={styles.hint}>{t('form.tuber_stays')}</span>
            </p>
          </div>
        )}
        secondaryAction={
          <Link to={PRODUCT_LIST_PATH} className={buttonClass('secondary')} onClick={draft.clear}>
            {t('common.cancel')}
          </Link>
        }
      />
    </>
  );
}
