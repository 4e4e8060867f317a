// The nutrition values filled in from the chosen tuber type (read-only; they are posted with the product).
import { useFarmerT } from '../i18n/t.js';
import { tuberName } from '../i18n/words.js';
import { NUTRITION_ROWS, nutritionValue } from './nutrition.js';
import type { NutritionState } from './useNutritionLookup.js';
import styles from './addProduct.module.css';

export function NutritionPanel({ state }: { state: NutritionState }) {
  const t = useFarmerT();
  return (
    <section className={styles.nutrition} aria-labelledby="nutrition-heading" aria-live="polite">
      <h2 id="nutrition-heading" className={styles.nutritionHeading}>
        {t('nutrition.title')}
      </h2>
      {state.status === 'empty' && <p className={styles.hint}>{t('nutrition.choose')}</p>}
      {state.status === 'loading' && <p className={styles.hint}>{t('nutrition.loading', { tuber: tuberName(state.tuberType) })}</p>}
      {state.status === 'not-found' && <p className={styles.hint}>{t('nutrition.not_found', { tuber: tuberName(state.tuberType) })}</p>}
      {state.status === 'found' && (
        <>
          <dl className={styles.nutritionGrid} data-testid="nutrition-values">
            {NUTRITION_ROWS.map((row) => (
              <div key={row.key} className={styles.nutritionRow}>
                <dt>{t(`nutrition.${row.key}`)}</dt>
                <dd>{nutritionValue(state.nutrition[row.key], row.unit)}</dd>
              </div>
            ))}
          </dl>
          <p className={styles.source}>{t('nutrition.source', { name: state.source.name, reference: state.source.reference })}</p>
        </>
      )}
    </section>
  );
}
