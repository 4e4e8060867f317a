// /dashboard/productLists — "All Product List": the signed-in farmer's products, with Delete (spec §2, §4).
import { useState } from 'react';
import { Link } from '@tuber/shell-contract/router';
import type { Product } from '@tuber/contracts';
import { useApi, useToast } from '@tuber/shell-contract';
import { Button, Spinner, buttonClass } from '@tuber/ui';
import { ConfirmDialog } from '../product-list/ConfirmDialog.js';
import { ProductCard } from '../product-list/ProductCard.js';
import { useMyProducts } from '../product-list/useMyProducts.js';
import { useFarmerT } from '../i18n/t.js';
import { deleteFailedMessage, messageOf, offlineActionMessage, productDeletedMessage } from '../shared/messages.js';
import { isOffline } from '../shared/network.js';
import { ADD_PRODUCT_PATH } from '../shared/paths.js';
import styles from '../product-list/productList.module.css';

export default function ProductListPage() {
  const api = useApi();
  const toast = useToast();
  const t = useFarmerT();
  const { state, reload } = useMyProducts();
  const [toDelete, setToDelete] = useState<Product | null>(null);
  const [deleting, setDeleting] = useState(false);

  async function deleteProduct() {
    if (!toDelete) return;
    if (isOffline()) {
      toast.error(offlineActionMessage());
      setToDelete(null);
      return;
    }
    setDeleting(true);
    try {
      await api.delete(`/catalog/products/${encodeURIComponent(toDelete.product_id)}`);
      toast.success(productDeletedMessage());
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
      <h1 className={styles.title}>{t('list.title')}</h1>

      {state.status === 'loading' && <Spinner label={t('list.loading')} />}
      {state.status === 'failed' && (
        <div className={styles.error} role="alert">
          <p>{state.message}</p>
          <Button variant="secondary" onClick={reload}>
            {t('common.try_again')}
          </Button>
        </div>
      )}
      {state.status === 'loaded' && state.products.length === 0 && (
        <div className={styles.empty}>
          <p>{t('list.empty')}</p>
          <Link to={ADD_PRODUCT_PATH} className={buttonClass('primary')}>
            {t('common.add_a_product')}
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
        title={t('list.delete_title')}
        confirmLabel={t('list.delete_confirm')}
        cancelLabel={t('common.cancel')}
        busy={deleting}
        onConfirm={() => void deleteProduct()}
        onCancel={() => setToDelete(null)}
      >
        {toDelete ? t('list.delete_question', { name: toDelete.product_name }) : t('list.delete_question_this')}
      </ConfirmDialog>
    </section>
  );
}
