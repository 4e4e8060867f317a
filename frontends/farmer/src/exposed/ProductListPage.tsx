// /dashboard/productLists — "All Product List": the signed-in farmer's products, with Delete (spec §2, §4).
import { useState } from 'react';
import { Link } from '@tuber/ui/router';
import type { Product } from '@tuber/contracts';
import { Button, Spinner, buttonClass, useApi, useToast } from '@tuber/ui';
import { ConfirmDialog } from '../product-list/ConfirmDialog.js';
import { ProductCard } from '../product-list/ProductCard.js';
import { useMyProducts } from '../product-list/useMyProducts.js';
import { PRODUCT_DELETED_MESSAGE, deleteFailedMessage, messageOf } from '../shared/messages.js';
import { ADD_PRODUCT_PATH } from '../shared/paths.js';
import styles from '../product-list/productList.module.css';

export default function ProductListPage() {
  const api = useApi();
  const toast = useToast();
  const { state, reload } = useMyProducts();
  const [toDelete, setToDelete] = useState<Product | null>(null);
  const [deleting, setDeleting] = useState(false);

  async function deleteProduct() {
    if (!toDelete) return;
    setDeleting(true);
    try {
      await api.delete(`/catalog/products/${encodeURIComponent(toDelete.product_id)}`);
      toast.success(PRODUCT_DELETED_MESSAGE);
      reload();
    } catch (error) {
      toast.error(deleteFailedMessage(messageOf(error)));
    } finally {
      setDeleting(false);
      setToDelete(null);
    }
  }

  return (
    <section className={styles.page}>
      <h1 className={styles.title}>All Product List</h1>

      {state.status === 'loading' && <Spinner label="Loading your products…" />}
      {state.status === 'failed' && (
        <div className={styles.error} role="alert">
          <p>{state.message}</p>
          <Button variant="secondary" onClick={reload}>
            Try again
          </Button>
        </div>
      )}
      {state.status === 'loaded' && state.products.length === 0 && (
        <div className={styles.empty}>
          <p>You have not posted any products yet.</p>
          <Link to={ADD_PRODUCT_PATH} className={buttonClass('primary')}>
            Add a product
          </Link>
        </div>
      )}
      {state.status === 'loaded' && state.products.length > 0 && (
        <div className={styles.grid}>
          {state.products.map((product) => (
            <ProductCard key={product.product_id} product={product} onDelete={setToDelete} />
          ))}
        </div>
      )}

      <ConfirmDialog
        open={toDelete !== null}
        title="Delete product"
        confirmLabel="Yes, Delete"
        busy={deleting}
        onConfirm={() => void deleteProduct()}
        onCancel={() => setToDelete(null)}
      >
        Are you sure you want to delete {toDelete ? `“${toDelete.product_name}”` : 'this product'}? Buyers will no longer see it.
      </ConfirmDialog>
    </section>
  );
}
