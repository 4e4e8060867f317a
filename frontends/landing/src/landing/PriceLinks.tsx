// The landing page's "Prices this week" (issue 27): a link to each tuber's price page with this week's city figure
// ("₦1,050–1,300/kg"), from GET /api/catalog/prices/now. Shown only when the shell routes /prices (it says so in
// ShellContract.serves): this remote ships on its own day, and under an older shell the links would be dead. The
// links do not wait for the figures: a tuber whose figures have not come (or cannot) links without one.
import { useEffect, useState } from 'react';
import type { PriceNow } from '@tuber/contracts';
import { useApi, useShell } from '@tuber/shell-contract';
import { Link } from '@tuber/shell-contract/router';
import { useFormat, useT } from '@tuber/ui';
import { landingCatalogue } from '../i18n/catalogue.js';
import { perKgRange } from '../prices/priceText.js';
import { TUBER_SLUGS, fetchPricesNow, pricePagePath } from '../prices/priceView.js';
import styles from './landing.module.css';

/** Whether the shell this page runs in routes the price pages (an older shell leaves `serves` out). */
export function useShellServesPrices(): boolean {
  return useShell().serves?.includes('/prices') ?? false;
}

function usePricesNow(): Map<string, PriceNow> | null {
  const api = useApi();
  const [figures, setFigures] = useState<Map<string, PriceNow> | null>(null);
  useEffect(() => {
    let current = true;
    fetchPricesNow(api)
      .then((byTuber) => {
        if (current) setFigures(byTuber);
      })
      // The links work without their figures; the price page itself says what went wrong.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [api]);
  return figures;
}

export function PriceLinks() {
  const t = useT(landingCatalogue);
  const format = useFormat();
  const figures = usePricesNow();

  const figureOf = (slug: string): string => {
    if (!figures) return '';
    const now = figures.get(slug);
    const band = now?.sold ?? now?.asked;
    if (!now || !band) return t('prices.not-enough-sales');
    const range = perKgRange(t, format, band);
    return t('landing.prices.figure', { kind: now.sold ? 'sold' : 'asked', period: now.period ?? 'this_week', range });
  };

  return (
    <section className={styles.section} aria-labelledby="prices-title" data-testid="price-links">
      <div className={styles.sectionInner}>
        <h2 id="prices-title" className={styles.sectionTitle}>
          {t('landing.prices.title')}
        </h2>
        <p className={styles.lead}>{t('landing.prices.lead')}</p>
        <ul className={styles.priceLinks}>
          {TUBER_SLUGS.map((slug) => (
            <li key={slug}>
              <Link to={pricePagePath(slug)} className={styles.priceLink}>
                <span className={styles.priceTuber}>{t(`tuber.${slug}`)}</span>
                <span className={styles.priceFigure}>{figureOf(slug)}</span>
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
