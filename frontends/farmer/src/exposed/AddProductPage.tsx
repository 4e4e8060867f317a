// /dashboard/farmer — the farmer's home: the Add Product form (spec §2, §4, §5; issue 11: units, stock, status,
// photos added one pick at a time; issue 13: in the farmer's language, a draft kept through a dropped network or
// a reload, and posting offline refused in words).
import { useCallback, useId, useRef, useState, type ChangeEvent } from 'react';
import { Navigate, useNavigate } from '@tuber/shell-contract/router';
import { ApiError, useApi, useSession, useToast } from '@tuber/shell-contract';
import { Button, todayCalendarDay } from '@tuber/ui';
import { NutritionPanel } from '../add-product/NutritionPanel.js';
import { ProductForm } from '../add-product/ProductForm.js';
import type { ProductDraft } from '../add-product/draft.js';
import { emptyProductForm, toNewProduct, type ProductFormValues } from '../add-product/productForm.js';
import { postProduct, submissionOf, type Submission } from '../add-product/postProduct.js';
import { useNutritionLookup } from '../add-product/useNutritionLookup.js';
import { usePhotoUploads } from '../add-product/usePhotoUploads.js';
import { useProductDraft } from '../add-product/useProductDraft.js';
import { uploadedImageIds } from '../add-product/uploads.js';
import { useFarmerT } from '../i18n/t.js';
import { tuberName } from '../i18n/words.js';
import { messageOf, noDataReturnedMessage, offlinePostMessage, postFailedMessage, productPostedMessage } from '../shared/messages.js';
import { isOffline } from '../shared/network.js';
import { BUYER_HOME_PATH, PRODUCT_LIST_PATH } from '../shared/paths.js';
import { useFarmProfile } from '../shared/useFarmerTubers.js';
import styles from '../add-product/addProduct.module.css';

export default function AddProductPage() {
  const session = useSession();
  // Adding products is for farmers; anyone else is sent to the buyer's feed (spec §6).
  if (session.status === 'signed-in' && session.user.userType !== 'farmer') return <Navigate to={BUYER_HOME_PATH} replace />;
  return <AddProductForm farmerId={session.status === 'signed-in' ? session.user.id : null} />;
}

function AddProductForm({ farmerId }: { farmerId: string | null }) {
  const api = useApi();
  const toast = useToast();
  const navigate = useNavigate();
  const t = useFarmerT();
  const { tubers, location } = useFarmProfile();
  const photos = usePhotoUploads();
  const nutrition = useNutritionLookup();
  const [values, setValues] = useState<ProductFormValues>(emptyProductForm);
  const [posting, setPosting] = useState(false);
  // The Idempotency-Key of the form as last submitted: kept until the post succeeds, so that pressing Post
  // again after an error sends the same key, and the catalog never makes that product twice (ADR 0059).
  const submission = useRef<Submission | null>(null);
  const tuberId = useId();

  const { showPosted } = photos;
  const { lookUp } = nutrition;
  const restore = useCallback(
    (draft: ProductDraft) => {
      setValues(draft.values);
      if (draft.photos.length > 0) showPosted(draft.photos.map((photo) => ({ ...photo, posted: false })));
      if (draft.values.tuberType) lookUp(draft.values.tuberType);
    },
    [showPosted, lookUp],
  );
  const draft = useProductDraft({
    farmerId,
    baseline: emptyProductForm,
    baselinePhotos: '',
    values,
    photos: photos.state,
    onRestore: restore,
  });

  function chooseTuberType(event: ChangeEvent<HTMLSelectElement>) {
    setValues((current) => ({ ...current, tuberType: event.target.value }));
    nutrition.lookUp(event.target.value);
  }

  function reset() {
    draft.clear();
    setValues(emptyProductForm);
    photos.clear();
    nutrition.clear();
  }

  async function post() {
    // Without a network the post cannot go: say so, and keep everything (the draft is saved as typed).
    if (isOffline()) {
      toast.error(offlinePostMessage());
      return;
    }
    setPosting(true);
    try {
      const body = toNewProduct(values, uploadedImageIds(photos.state), nutrition.nutrition);
      submission.current = submissionOf(submission.current, body);
      const product = await postProduct(api, body, submission.current.key);
      if (!product?.product_id) {
        toast.error(noDataReturnedMessage());
        return;
      }
      toast.success(productPostedMessage());
      submission.current = null;
      reset();
      navigate(PRODUCT_LIST_PATH);
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 0) toast.error(offlinePostMessage());
      else toast.error(postFailedMessage(messageOf(error)));
    } finally {
      setPosting(false);
    }
  }

  // The tuber the form holds stays offered even when the profile no longer lists it (a restored draft).
  const offered = values.tuberType && !tubers.includes(values.tuberType) ? [...tubers, values.tuberType] : tubers;

  return (
    <section className={styles.page}>
      <header className={styles.pageHeader}>
        <h1 className={styles.title}>{t('add.title')}</h1>
        <p className={styles.lead}>{t('add.lead')}</p>
      </header>

      {draft.restored && (
        <div className={styles.draftNotice} role="status" data-testid="draft-restored">
          <p>{t('offline.draft_restored')}</p>
          <Button variant="secondary" onClick={reset}>
            {t('offline.discard_draft')}
          </Button>
        </div>
      )}

      <ProductForm
        label={t('add.title')}
        values={values}
        onChange={setValues}
        checkOptions={{ today: todayCalendarDay() }}
        photos={photos}
        busy={posting}
        submitLabel={t('add.submit')}
        onSubmit={() => void post()}
        farmLocation={location}
        tuberField={({ inputProps, problem }) => (
          <div className={styles.field}>
            <label htmlFor={tuberId}>{t('form.tuber_type')}</label>
            <select id={tuberId} name="tuber_type" required value={values.tuberType} onChange={chooseTuberType} {...inputProps}>
              <option value="">{t('form.tuber_none')}</option>
              {offered.map((tuber) => (
                <option key={tuber} value={tuber}>
                  {tuberName(tuber)}
                </option>
              ))}
            </select>
            {problem}
            {tubers.length === 0 && <span className={styles.hint}>{t('form.no_tubers_hint')}</span>}
          </div>
        )}
      >
        <NutritionPanel state={nutrition.state} />
      </ProductForm>
    </section>
  );
}
