// The price guide at the price field (issue 27): what the tuber sold for this week around the farm, in the unit the
// farmer sells by once its average weight is known, and a gentle note when the price typed is far outside. Never
// blocks saving. Before a tuber is chosen (Add Product asks for it at the end of the form) it says where to choose it.
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
        <PriceHint
          now={now}
          tuberName={tuberName(values.tuberType)}
          unitLabel={inUnit ? unitLabel(values.unit, values.tuberSize || null) : unitLabel('kg')}
          kgPerUnit={inUnit ? weight : 1}
          pricePerKg={price !== null && weight !== null ? pricePerKg(price, weight) : null}
        />
      ) : (
        <p className={styles.hint}>{t('form.price_guide_choose_tuber')}</p>
      )}
    </div>
  );
}
