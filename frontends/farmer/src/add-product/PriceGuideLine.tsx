// The price guide at the price field (issue 27): what the tuber sold for this week around the farm, in the unit the
// farmer sells by once its average weight is known, and a gentle note when the price typed is far outside. Never
// blocks saving. Before a tuber is chosen (Add Product asks for it at the end of the form) it says where to choose it.
// Under the figures it says whose they are (the farm's place, or the whole city while the place has too few sales of
// its own), and links to the tuber's price page in a new tab (the form keeps what was typed) when the shell routes
// /prices (ShellContract.serves: an older shell leaves it out, and then there is no dead link).
import { tuberSlug, type PriceNow, type TuberType } from '@tuber/contracts';
import { useShell } from '@tuber/shell-contract';
import { PriceHint, pricePerKg } from '@tuber/ui';
import { useFarmerT } from '../i18n/t.js';
import { tuberName, unitLabel } from '../i18n/words.js';
import { readAmount, unitWeightOf, type ProductFormValues } from './productForm.js';
import { usePriceGuide } from './usePriceGuide.js';
import styles from './addProduct.module.css';

type GuideValues = Pick<ProductFormValues, 'tuberType' | 'unit' | 'tuberSize' | 'unitWeightKg' | 'price'>;

export function PriceGuideLine({ id, values, location }: { id: string; values: GuideValues; location: string | undefined }) {
  const t = useFarmerT();
  const now = usePriceGuide(values.tuberType, location);
  const weight = unitWeightOf(values);
  const price = readAmount(values.price);
  // In the selling unit once its weight is known; per kg until then.
  const inUnit = values.unit !== 'kg' && weight !== null;
  return (
    <div id={id} className={styles.priceGuide}>
      {values.tuberType ? (
        <>
          <PriceHint
            now={now}
            tuberName={tuberName(values.tuberType)}
            unitLabel={inUnit ? unitLabel(values.unit, values.tuberSize || null) : unitLabel('kg')}
            kgPerUnit={inUnit ? weight : 1}
            pricePerKg={price !== null && weight !== null ? pricePerKg(price, weight) : null}
          />
          {now ? <WhoseFigures now={now} location={location} /> : null}
        </>
      ) : (
        <p className={styles.hint}>{t('form.price_guide_choose_tuber')}</p>
      )}
    </div>
  );
}

/** The price page's address for the figures shown: the place's when they are the place's, else the city's. */
export function pricePageHref(now: Pick<PriceNow, 'tuber' | 'scope' | 'location'>): string {
  const slug = tuberSlug(now.tuber as TuberType);
  return now.scope === 'location' && now.location ? `/prices/${slug}?location=${encodeURIComponent(now.location)}` : `/prices/${slug}`;
}

function WhoseFigures({ now, location }: { now: PriceNow; location: string | undefined }) {
  const t = useFarmerT();
  const servesPrices = useShell().serves?.includes('/prices') ?? false;
  // Nothing to say whose figures are when there are none ("Not enough … sales yet").
  if (!now.sold && !now.asked) return null;
  const place = location?.trim();
  const whose =
    now.scope === 'location'
      ? t('form.price_guide_place', { place: now.location ?? place ?? '' })
      : place
        ? t('form.price_guide_city_for_place', { place })
        : t('form.price_guide_city');
  return (
    <p className={styles.hint} data-testid="price-guide-whose" data-scope={now.scope}>
      {whose}
      {servesPrices ? (
        <>
          {' '}
          <a href={pricePageHref(now)} target="_blank" rel="noopener" data-testid="price-guide-link">
            {t('form.price_guide_link', { tuber: tuberName(now.tuber) })}
            <span className={styles.newTab}> ({t('form.price_guide_new_tab')})</span>
          </a>
        </>
      ) : null}
    </p>
  );
}
