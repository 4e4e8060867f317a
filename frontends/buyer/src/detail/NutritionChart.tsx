import type { Nutrition } from '../catalog/types.js';
import { useBuyerT } from '../i18n/t.js';
import { keyOf } from '../i18n/words.js';
import { nutritionBars } from './nutrition.js';
import styles from './detail.module.css';

/** "Nutrition Value": one bar per nutrient, the value to 2 decimals beside it. */
export function NutritionChart({ nutrition }: { nutrition: Nutrition | null | undefined }) {
  const t = useBuyerT();
  const bars = nutritionBars(nutrition);
  return (
    <section className={styles.section} aria-labelledby="nutrition-title">
      <h2 id="nutrition-title" className={styles.sectionTitle}>
        {t('nutrition.title')}
      </h2>
      {bars ? (
        <>
          <ul className={styles.bars} data-testid="nutrition-bars">
            {bars.map((bar) => (
              <li key={bar.key} className={styles.bar} data-nutrient={bar.key}>
                <span className={styles.barLabel}>{t(`nutrition.${keyOf(bar.key)}`)}</span>
                <span
                  className={styles.barTrack}
                  role="meter"
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={bar.percent}
                  aria-label={t('nutrition.meter', { label: t(`nutrition.${keyOf(bar.key)}`), percent: bar.percent })}
                >
                  <span className={styles.barFill} style={{ width: `${bar.percent}%` }} />
                </span>
                <span className={styles.barValue} data-testid="nutrient-value">
                  {bar.value} {bar.unit}
                </span>
              </li>
            ))}
          </ul>
          <p className={styles.note}>{t('nutrition.note')}</p>
        </>
      ) : (
        <p className={styles.muted}>{t('product.not-provided')}</p>
      )}
    </section>
  );
}
