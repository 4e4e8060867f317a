// The farmer page (issue 26) at /dashboard/buyer?farmer=<id>: the farm as a buyer sees it (name, place, tubers,
// member since, rating), its products, and its figures and reviews. It lives on the feed's own address, so any
// shell that has the feed shows it (no new shell route: a remote released before the shell still works).
import { useEffect, useState } from 'react';
import { Link } from '@tuber/shell-contract/router';
import { ApiError, useApi } from '@tuber/shell-contract';
import { Button, problemText, ReportAction, Spinner, VerifiedBadge } from '@tuber/ui';
import type { FarmerPublic } from '@tuber/contracts';
import type { Product } from '../catalog/types.js';
import { ProductCard } from '../feed/ProductCard.js';
import { useBuyerT } from '../i18n/t.js';
import { dayText, tuberName } from '../i18n/words.js';
import { FarmerTrustSection } from './FarmerTrustSection.js';
import { farmerProductsPath, farmPath } from './trustTypes.js';
import feedStyles from '../feed/feed.module.css';
import styles from './trust.module.css';

export const farmerPagePath = (farmerId: string) => `/dashboard/buyer?farmer=${encodeURIComponent(farmerId)}`;

type Farm = { status: 'loading' } | { status: 'missing' } | { status: 'error'; message: string } | { status: 'ready'; farm: FarmerPublic };
type Products = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; items: Product[]; next: string | null };

export function FarmerView({ farmerId }: { farmerId: string }) {
  const api = useApi();
  const t = useBuyerT();
  const [farm, setFarm] = useState<Farm>({ status: 'loading' });
  const [products, setProducts] = useState<Products>({ status: 'loading' });
  const [more, setMore] = useState(false);

  useEffect(() => {
    let active = true;
    api
      .get<FarmerPublic>(farmPath(farmerId))
      .then((found) => active && setFarm({ status: 'ready', farm: found }))
      .catch((error: unknown) => {
        if (!active) return;
        if (error instanceof ApiError && error.statusCode === 404) setFarm({ status: 'missing' });
        else setFarm({ status: 'error', message: problemText(error) });
      });
    api
      .get<{ items: Product[]; next_cursor: string | null }>(farmerProductsPath(farmerId))
      .then((page) => active && setProducts({ status: 'ready', items: page.items, next: page.next_cursor }))
      .catch((error: unknown) => active && setProducts({ status: 'error', message: problemText(error) }));
    return () => {
      active = false;
    };
  }, [api, farmerId]);

  async function loadMore() {
    if (products.status !== 'ready' || !products.next) return;
    setMore(true);
    try {
      const page = await api.get<{ items: Product[]; next_cursor: string | null }>(farmerProductsPath(farmerId, products.next));
      setProducts({ status: 'ready', items: [...products.items, ...page.items], next: page.next_cursor });
    } catch (error) {
      setProducts({ status: 'error', message: problemText(error) });
    } finally {
      setMore(false);
    }
  }

  if (farm.status === 'loading') return <Spinner label={t('farm.loading')} />;
  if (farm.status === 'missing' || farm.status === 'error') {
    return (
      <section className={feedStyles.page}>
        <p role="alert" className={styles.error}>
          {farm.status === 'missing' ? t('farm.missing') : t('common.error', { message: farm.message })}
        </p>
        <Link to="/dashboard/buyer">{t('product.all')}</Link>
      </section>
    );
  }
  const { farm: found } = farm;
  return (
    <section className={feedStyles.page} aria-labelledby="farm-title" data-testid="farmer-page">
      <Link to="/dashboard/buyer">{t('product.all')}</Link>
      <header className={styles.farmHeader}>
        <h1 id="farm-title" className={feedStyles.title}>
          {found.business_name}
        </h1>
        <p className={styles.muted}>{found.location}</p>
        {found.phone_verified ? (
          <p>
            <VerifiedBadge label={t('farm.phone-verified')} />
          </p>
        ) : null}
        {found.tuber.length ? <p data-testid="farm-tubers">{t('farm.grows', { tubers: found.tuber.map((tuber) => tuberName(tuber, t)).join(', ') })}</p> : null}
        <p className={styles.muted} data-testid="farm-since">
          {t('farm.member-since', { date: dayText(found.member_since.slice(0, 10)) })}
        </p>
        <ReportAction api={api} kind="farmer" targetId={farmerId} />
      </header>
      <h2 className={styles.title}>{t('farm.products')}</h2>
      {products.status === 'loading' ? <Spinner label={t('farm.loading')} /> : null}
      {products.status === 'error' ? (
        <p role="alert" className={styles.error}>
          {t('common.error', { message: products.message })}
        </p>
      ) : null}
      {products.status === 'ready' && products.items.length === 0 ? <p className={styles.muted}>{t('farm.no-products')}</p> : null}
      {products.status === 'ready' && products.items.length > 0 ? (
        <div className={feedStyles.grid} data-testid="product-grid">
          {products.items.map((product) => (
            <ProductCard key={product.product_id} product={product} />
          ))}
        </div>
      ) : null}
      {products.status === 'ready' && products.next ? (
        <Button variant="secondary" onClick={() => void loadMore()} disabled={more} aria-busy={more}>
          {more ? t('farm.loading') : t('farm.more')}
        </Button>
      ) : null}
      <FarmerTrustSection farmerId={farmerId} businessName={found.business_name} />
    </section>
  );
}
