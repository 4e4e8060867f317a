// /dashboard/farmer — the farmer's home: the Add Product form (spec §2, §4, §5; issue 11: units, stock, status,
// photos added one pick at a time).
import { useId, useState, type ChangeEvent } from 'react';
import { Navigate, useNavigate } from '@tuber/ui/router';
import type { Product } from '@tuber/contracts';
import { todayCalendarDay, useApi, useSession, useToast } from '@tuber/ui';
import { NutritionPanel } from '../add-product/NutritionPanel.js';
import { ProductForm } from '../add-product/ProductForm.js';
import { emptyProductForm, toNewProduct, type ProductFormValues } from '../add-product/productForm.js';
import { useNutritionLookup } from '../add-product/useNutritionLookup.js';
import { usePhotoUploads } from '../add-product/usePhotoUploads.js';
import { uploadedImageIds } from '../add-product/uploads.js';
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
  const tuberId = useId();

  function chooseTuberType(event: ChangeEvent<HTMLSelectElement>) {
    setValues((current) => ({ ...current, tuberType: event.target.value }));
    nutrition.lookUp(event.target.value);
  }

  function reset() {
    setValues(emptyProductForm);
    photos.clear();
    nutrition.clear();
  }

  async function post() {
    setPosting(true);
    try {
      const body = toNewProduct(values, uploadedImageIds(photos.state), nutrition.nutrition);
      const product = await api.post<Product | null>('/catalog/products', body);
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

  return (
    <section className={styles.page}>
      <header className={styles.pageHeader}>
        <h1 className={styles.title}>Add Product</h1>
        <p className={styles.lead}>List a harvest for buyers nearby: photos, price and what makes it special.</p>
      </header>

      <ProductForm
        label="Add Product"
        values={values}
        onChange={setValues}
        checkOptions={{ today: todayCalendarDay() }}
        photos={photos}
        busy={posting}
        submitLabel="Post Product"
        onSubmit={() => void post()}
        tuberField={({ inputProps, problem }) => (
          <div className={styles.field}>
            <label htmlFor={tuberId}>Tuber Type</label>
            <select id={tuberId} name="tuber_type" required value={values.tuberType} onChange={chooseTuberType} {...inputProps}>
              <option value="">none</option>
              {tubers.map((tuber) => (
                <option key={tuber} value={tuber}>
                  {tuber}
                </option>
              ))}
            </select>
            {problem}
            {tubers.length === 0 && (
              <span className={styles.hint}>
                Your profile lists no tubers yet: add the tubers you grow in your profile, then choose one here.
              </span>
            )}
          </div>
        )}
      >
        <NutritionPanel state={nutrition.state} />
      </ProductForm>
    </section>
  );
}
