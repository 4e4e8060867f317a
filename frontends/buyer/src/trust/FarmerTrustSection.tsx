// What a buyer can learn about a farmer they have never met (issue 26), on the product page: the rating (or
// "New on Tuber Market"), how the farmer answers and delivers over the last 90 days, and the reviews of their
// sales with the farmer's answers, a few at a time.
import { useCallback, useEffect, useState } from 'react';
import { useApi } from '@tuber/shell-contract';
import { Button, problemText, Spinner } from '@tuber/ui';
import { useBuyerT } from '../i18n/t.js';
import { dateTimeText } from '../requests/requestText.js';
import { RatingBadge } from './RatingBadge.js';
import { Stars } from './Stars.js';
import { hasMean, responseLines } from './trustWords.js';
import { reviewsPath, trustPath, type FarmerTrust, type Review, type ReviewPage } from './trustTypes.js';
import styles from './trust.module.css';

const PAGE = 3;

type Loaded = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; trust: FarmerTrust; reviews: Review[]; next: string | null };

export function FarmerTrustSection({ farmerId, businessName }: { farmerId: string; businessName: string }) {
  const api = useApi();
  const t = useBuyerT();
  const [state, setState] = useState<Loaded>({ status: 'loading' });
  const [more, setMore] = useState<'idle' | 'loading' | string>('idle');

  useEffect(() => {
    let active = true;
    setState({ status: 'loading' });
    Promise.all([api.get<FarmerTrust>(trustPath(farmerId)), api.get<ReviewPage>(reviewsPath(farmerId, PAGE))])
      .then(([trust, page]) => active && setState({ status: 'ready', trust, reviews: page.items, next: page.next_cursor }))
      .catch((error: unknown) => active && setState({ status: 'error', message: problemText(error) }));
    return () => {
      active = false;
    };
  }, [api, farmerId]);

  const loadMore = useCallback(async () => {
    if (state.status !== 'ready' || !state.next) return;
    setMore('loading');
    try {
      const page = await api.get<ReviewPage>(reviewsPath(farmerId, PAGE * 3, state.next));
      setState({ ...state, reviews: [...state.reviews, ...page.items], next: page.next_cursor });
      setMore('idle');
    } catch (error) {
      setMore(problemText(error));
    }
  }, [api, farmerId, state]);

  const figures = state.status === 'ready' ? responseLines(state.trust, t) : [];
  return (
    <section className={styles.trust} aria-labelledby="trust-title" data-testid="farmer-trust">
      <h2 id="trust-title" className={styles.title}>
        {t('trust.title', { business: businessName })}
      </h2>
      {state.status === 'loading' ? <Spinner label={t('trust.loading')} /> : null}
      {state.status === 'error' ? (
        <p role="alert" className={styles.error}>
          {t('trust.failed', { message: state.message })}
        </p>
      ) : null}
      {state.status === 'ready' ? (
        <>
          <p className={styles.summary}>
            <RatingBadge rating={state.trust.rating} />
            {state.trust.rating.count > 0 && !hasMean(state.trust.rating) ? (
              <span className={styles.count}>{t('trust.reviews-count', { count: state.trust.rating.count })}</span>
            ) : null}
          </p>
          {figures.length ? (
            <ul className={styles.figures} data-testid="farmer-figures">
              {figures.map((line) => (
                <li key={line}>{line}</li>
              ))}
              <li className={styles.note}>{t('trust.figures-note')}</li>
            </ul>
          ) : null}
          <h3 className={styles.subtitle}>{t('trust.reviews')}</h3>
          {state.reviews.length === 0 ? <p className={styles.muted}>{t('trust.no-reviews')}</p> : null}
          <ul className={styles.reviews} data-testid="reviews">
            {state.reviews.map((review) => (
              <li key={review.request_id} className={styles.review} data-testid="review">
                <p className={styles.reviewHead}>
                  <Stars value={review.stars} label={t('review.star', { count: review.stars })} />
                  <span className={styles.reviewer}>{review.buyer_name}</span>
                  <time className={styles.muted} dateTime={review.created_at}>
                    {dateTimeText(review.created_at)}
                  </time>
                </p>
                {review.text ? <p className={styles.reviewText}>{review.text}</p> : null}
                {review.products.length ? <p className={styles.muted}>{t('trust.bought', { products: review.products.join(', ') })}</p> : null}
                {review.answer ? (
                  <blockquote className={styles.answer}>
                    <p className={styles.answerBy}>{t('trust.answer', { business: businessName })}</p>
                    <p>{review.answer.text}</p>
                  </blockquote>
                ) : null}
              </li>
            ))}
          </ul>
          {state.next ? (
            <Button variant="secondary" onClick={() => void loadMore()} disabled={more === 'loading'} aria-busy={more === 'loading'}>
              {more === 'loading' ? t('trust.loading') : t('trust.more')}
            </Button>
          ) : null}
          {more !== 'idle' && more !== 'loading' ? (
            <p role="alert" className={styles.error}>
              {t('trust.failed', { message: more })}
            </p>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
