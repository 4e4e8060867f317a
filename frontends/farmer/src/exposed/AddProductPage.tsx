// /dashboard/farmer — the farmer's home: the Add Product form (spec §2, §4, §5).
import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { Navigate, useNavigate } from '@tuber/ui/router';
import type { Product } from '@tuber/contracts';
import { Button, useApi, useSession, useToast } from '@tuber/ui';
import { NutritionPanel } from '../add-product/NutritionPanel.js';
import { PhotoPicker } from '../add-product/PhotoPicker.js';
import { checkUploadedCount } from '../add-product/imageRules.js';
import { emptyProductForm, toNewProduct, type ProductFormValues } from '../add-product/productForm.js';
import { useNutritionLookup } from '../add-product/useNutritionLookup.js';
import { usePhotoUploads } from '../add-product/usePhotoUploads.js';
import { isUploading, uploadedImageIds } from '../add-product/uploads.js';
import { InlineSpinner } from '../shared/InlineSpinner.js';
import { NO_DATA_RETURNED_MESSAGE, PRODUCT_POSTED_MESSAGE, messageOf, postFailedMessage } from '../shared/messages.js';
import { BUYER_HOME_PATH, PRODUCT_LIST_PATH } from '../shared/paths.js';
import { useFarmerTubers } from '../shared/useFarmerTubers.js';
import styles from '../add-product/addProduct.module.css';

export default function AddProductPage() {
  const session = useSession();
  // Adding products is for farmers; anyone else is sent to the buyer's feed (spec §6).
  if (session.status === 'signed-in' && session.user.userType !== 'farmer') return <Navigate to={BUYER_HOME_PATH} replace />;
  return <AddProductForm />;
}

function AddProductForm() {
  const api = useApi();
  const toast = useToast();
  const navigate = useNavigate();
  const tubers = useFarmerTubers();
  const photos = usePhotoUploads();
  const nutrition = useNutritionLookup();
  const [values, setValues] = useState<ProductFormValues>(emptyProductForm);
  const [posting, setPosting] = useState(false);
  const id = useId();

  const uploading = isUploading(photos.state);
  const set = (field: keyof ProductFormValues) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  function chooseTuberType(event: ChangeEvent<HTMLSelectElement>) {
    set('tuberType')(event);
    nutrition.lookUp(event.target.value);
  }

  function reset() {
    setValues(emptyProductForm);
    photos.clear();
    nutrition.clear();
  }

  async function post(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (uploading || posting) return;
    const imageIds = uploadedImageIds(photos.state);
    const imageProblem = checkUploadedCount(imageIds.length);
    if (imageProblem) {
      toast.error(imageProblem);
      return;
    }
    setPosting(true);
    try {
      const product = await api.post<Product | null>('/catalog/products', toNewProduct(values, imageIds, nutrition.nutrition));
      if (!product?.product_id) {
        toast.error(NO_DATA_RETURNED_MESSAGE);
        return;
      }
      toast.success(PRODUCT_POSTED_MESSAGE);
      reset();
      navigate(PRODUCT_LIST_PATH);
    } catch (error) {
      toast.error(postFailedMessage(messageOf(error)));
    } finally {
      setPosting(false);
    }
  }

  const field = (name: string) => `${id}-${name}`;
  return (
    <section className={styles.page}>
      <header className={styles.pageHeader}>
        <h1 className={styles.title}>Add Product</h1>
        <p className={styles.lead}>List a harvest for buyers nearby: photos, price and what makes it special.</p>
      </header>

      <form className={styles.form} onSubmit={post} aria-label="Add Product">
        <div className={styles.field}>
          <label htmlFor={field('name')}>Product Name</label>
          <input
            id={field('name')}
            name="product_name"
            type="text"
            required
            maxLength={120}
            value={values.productName}
            onChange={set('productName')}
          />
        </div>

        <div className={styles.field}>
          <label htmlFor={field('description')}>Description</label>
          <textarea
            id={field('description')}
            name="description"
            rows={6}
            required
            maxLength={5000}
            value={values.description}
            onChange={set('description')}
          />
        </div>

        <div className={styles.pair}>
          <div className={styles.field}>
            <label htmlFor={field('price')}>Price (₦)</label>
            <input
              id={field('price')}
              name="price"
              type="number"
              inputMode="decimal"
              min={0}
              step={0.01}
              required
              value={values.price}
              onChange={set('price')}
            />
          </div>
          <div className={styles.field}>
            <label htmlFor={field('kg')}>KG</label>
            <input
              id={field('kg')}
              name="kg"
              type="number"
              inputMode="decimal"
              min={0}
              step={0.01}
              required
              value={values.kg}
              onChange={set('kg')}
            />
          </div>
        </div>

        <div className={styles.field}>
          <label htmlFor={field('cultural')}>Cultural Values</label>
          <textarea
            id={field('cultural')}
            name="cultural"
            rows={4}
            required
            maxLength={5000}
            value={values.cultural}
            onChange={set('cultural')}
          />
        </div>

        <div className={styles.field}>
          <label htmlFor={field('health')}>
            Health Benefits <span className={styles.optional}>(optional)</span>
          </label>
          <textarea id={field('health')} name="health" rows={4} maxLength={5000} value={values.health} onChange={set('health')} />
        </div>

        <div className={styles.field}>
          <label htmlFor={field('images')}>Upload Images</label>
          <PhotoPicker
            id={field('images')}
            photos={photos.state.photos}
            disabled={posting}
            onChoose={photos.choose}
            onRemove={photos.remove}
          />
        </div>

        <div className={styles.field}>
          <label htmlFor={field('tuber')}>Tuber Type</label>
          <select id={field('tuber')} name="tuber_type" required value={values.tuberType} onChange={chooseTuberType}>
            <option value="">none</option>
            {tubers.map((tuber) => (
              <option key={tuber} value={tuber}>
                {tuber}
              </option>
            ))}
          </select>
          {tubers.length === 0 && <span className={styles.hint}>Your profile lists no tubers yet, so there is nothing to choose.</span>}
        </div>

        <NutritionPanel state={nutrition.state} />

        <div className={styles.actions}>
          <Button type="submit" disabled={uploading || posting} aria-busy={uploading || posting}>
            {(uploading || posting) && <InlineSpinner />}
            Post Product
          </Button>
          {uploading && <span className={styles.hint}>Uploading photos…</span>}
        </div>
      </form>
    </section>
  );
}
