// A farmer's rating on a card or a page (issue 26): "★ 4.3 (12)", or "New on Tuber Market" below 3 reviews.
import { useLocale } from '@tuber/shell-contract';
import { useBuyerT } from '../i18n/t.js';
import { hasMean, meanText } from './trustWords.js';
import type { FarmerRating } from './trustTypes.js';
import styles from './trust.module.css';

export function RatingBadge({ rating }: { rating: FarmerRating | undefined }) {
  const t = useBuyerT();
  const { locale } = useLocale();
  if (!hasMean(rating)) {
    return (
      <span className={styles.newFarmer} data-testid="farmer-rating" data-rating="new">
        {t('trust.new')}
      </span>
    );
  }
  const mean = meanText(rating.mean, locale);
  const label = t('trust.rating-label', { mean, count: rating.count });
  // The words for screen readers as hidden text: an aria-label on a plain span is not allowed (axe
  // aria-prohibited-attr) and some readers skip it, leaving nothing read at all.
  return (
    <span className={styles.rating} data-testid="farmer-rating" data-rating={rating.mean} title={label}>
      <span className={styles.visuallyHidden}>{label}</span>
      <span aria-hidden="true" className={styles.starOn}>
        ★
      </span>{' '}
      <span aria-hidden="true">{mean}</span> <span aria-hidden="true" className={styles.count}>({rating.count})</span>
    </span>
  );
}
