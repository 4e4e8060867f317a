// The nutrition values filled in from the chosen tuber type (read-only; they are posted with the product).
import { NUTRITION_ROWS, nutritionValue } from './nutrition.js';
import type { NutritionState } from './useNutritionLookup.js';
import styles from './addProduct.module.css';

export function NutritionPanel({ state }: { state: NutritionState }) {
  return (
    <section className={styles.nutrition} aria-labelledby="nutrition-heading" aria-live="polite">
      <h2 id="nutrition-heading" className={styles.nutritionHeading}>
        Nutrition Value
      </h2>
      {state.status === 'empty' && <p className={styles.hint}>Choose a tuber type to fill in its nutrition values.</p>}
      {state.status === 'loading' && <p className={styles.hint}>Looking up nutrition values for {state.tuberType}…</p>}
      {state.status === 'not-found' && <p className={styles.hint}>No nutrition values were found for {state.tuberType}.</p>}
      {state.status === 'found' && (
        <>
          <dl className={styles.nutritionGrid} data-testid="nutrition-values">
            {NUTRITION_ROWS.map((row) => (
              <div key={row.key} className={styles.nutritionRow}>
                <dt>{row.label}</dt>
                <dd>{nutritionValue(state.nutrition[row.key], row.unit)}</dd>
              </div>
            ))}
          </dl>
          <p className={styles.source}>
            Source: {state.source.name} — {state.source.reference}
          </p>
        </>
      )}
    </section>
  );
}
