// The buyer's review of a fulfilled request, in the farmer's inbox (issue 26), with the farmer's one public
// answer: written here once, then shown as it stands.
import { useId, useState, type FormEvent } from 'react';
import { REVIEW_TEXT_MAX, type Review } from '@tuber/contracts';
import { useApi, useToast } from '@tuber/shell-contract';
import { Button, problemText } from '@tuber/ui';
import { useFarmerT } from '../i18n/t.js';
import { reviewAnswerPath } from './inbox.js';
import styles from './inbox.module.css';

export function ReviewAnswer({ requestId, review: initial }: { requestId: string; review: Review }) {
  const api = useApi();
  const toast = useToast();
  const t = useFarmerT();
  const id = useId();
  const [review, setReview] = useState(initial);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) {
      setProblem(t('review.answer_missing'));
      return;
    }
    setBusy(true);
    try {
      setReview(await api.put<Review>(reviewAnswerPath(requestId), { text: text.trim() }));
      toast.success(t('review.answered'));
    } catch (error) {
      toast.error(t('review.answer_failed', { message: problemText(error) }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className={styles.review} data-testid="request-review" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className={styles.historyTitle}>
        {t('review.title')}
      </h3>
      <p className={styles.reviewStars} role="img" aria-label={t('review.stars', { count: review.stars })}>
        {'★'.repeat(review.stars)}
        <span className={styles.reviewStarsOff}>{'★'.repeat(5 - review.stars)}</span>
      </p>
      {review.text ? <p className={styles.reviewText}>{review.text}</p> : null}
      {review.answer ? (
        <blockquote className={styles.reviewAnswer} data-testid="review-answer">
          <p className={styles.reviewAnswerBy}>{t('review.your_answer')}</p>
          <p>{review.answer.text}</p>
        </blockquote>
      ) : (
        <form onSubmit={submit} noValidate className={styles.field}>
          <label htmlFor={`${id}-answer`}>{t('review.answer_label')}</label>
          <textarea
            id={`${id}-answer`}
            rows={3}
            maxLength={REVIEW_TEXT_MAX}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setProblem(null);
            }}
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${id}-hint`}
          />
          <p id={`${id}-hint`} className={problem ? styles.problem : styles.reviewHint}>
            {problem ?? t('review.answer_hint')}
          </p>
          <div className={styles.actions}>
            <Button type="submit" disabled={busy} aria-busy={busy}>
              {busy ? t('review.answering') : t('review.answer')}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
