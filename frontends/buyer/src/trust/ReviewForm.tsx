// Rating a fulfilled request (issue 26), on My requests: 1–5 stars (each a 44 px target) and an optional
// text; once saved, the rating shows with "Change rating" until the 7 days run out.
import { useId, useState, type FormEvent } from 'react';
import { useApi, useToast } from '@tuber/shell-contract';
import { Button, problemText } from '@tuber/ui';
import { useBuyerT } from '../i18n/t.js';
import { dateTimeText } from '../requests/requestText.js';
import { Stars } from './Stars.js';
import { REVIEW_TEXT_MAX, reviewPath, type Review } from './trustTypes.js';
import styles from './trust.module.css';

/** `review`: the request's review as the list gave it (absent: not rated yet). */
export function ReviewForm({ requestId, number, review: initial }: { requestId: string; number: string; review?: Review | undefined }) {
  const api = useApi();
  const toast = useToast();
  const t = useBuyerT();
  const id = useId();
  const [review, setReview] = useState<Review | undefined>(initial);
  const [editing, setEditing] = useState(false);
  const [stars, setStars] = useState(0);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function startEditing(review?: Review) {
    setStars(review?.stars ?? 0);
    setText(review?.text ?? '');
    setProblem(null);
    setEditing(true);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (stars < 1) {
      setProblem(t('review.pick'));
      return;
    }
    setBusy(true);
    try {
      setReview(await api.put<Review>(reviewPath(requestId), { stars, text: text.trim() }));
      setEditing(false);
      toast.success(t('review.saved', { number }));
    } catch (error) {
      toast.error(t('review.failed', { message: problemText(error) }));
    } finally {
      setBusy(false);
    }
  }

  const changeable = review ? Date.now() < Date.parse(review.editable_until) : true;

  if (!editing) {
    if (!review) {
      return (
        <div className={styles.reviewBox}>
          <Button onClick={() => startEditing()} data-testid="rate-request">
            {t('review.title')}
          </Button>
        </div>
      );
    }
    return (
      <div className={styles.reviewBox} data-testid="my-review">
        <p className={styles.reviewHead}>
          <span>{t('review.yours')}</span>
          <Stars value={review.stars} label={t('review.star', { count: review.stars })} />
        </p>
        {review.text ? <p className={styles.reviewText}>{review.text}</p> : null}
        {review.answer ? (
          <blockquote className={styles.answer}>
            <p>{review.answer.text}</p>
          </blockquote>
        ) : null}
        {changeable ? (
          <>
            <p className={styles.muted}>{t('review.until', { date: dateTimeText(review.editable_until) })}</p>
            <Button variant="secondary" onClick={() => startEditing(review)}>
              {t('review.change')}
            </Button>
          </>
        ) : null}
      </div>
    );
  }

  return (
    <form className={styles.reviewBox} onSubmit={submit} noValidate aria-label={t('review.form', { number })}>
      <fieldset className={styles.starPicker} aria-describedby={problem ? `${id}-problem` : undefined}>
        <legend>{t('review.stars')}</legend>
        {[1, 2, 3, 4, 5].map((n) => (
          <label key={n} className={n <= stars ? styles.pickOn : styles.pickOff}>
            <input
              type="radio"
              name={`${id}-stars`}
              value={n}
              checked={stars === n}
              onChange={() => {
                setStars(n);
                setProblem(null);
              }}
            />
            <span aria-hidden="true">★</span>
            <span className={styles.visuallyHidden}>{t('review.star', { count: n })}</span>
          </label>
        ))}
      </fieldset>
      {problem ? (
        <p id={`${id}-problem`} className={styles.error}>
          {problem}
        </p>
      ) : null}
      <label htmlFor={`${id}-text`}>{t('review.text')}</label>
      <textarea id={`${id}-text`} rows={3} maxLength={REVIEW_TEXT_MAX} value={text} onChange={(event) => setText(event.target.value)} />
      <p className={styles.muted}>{t('review.chars', { count: text.length, max: REVIEW_TEXT_MAX })}</p>
      <div className={styles.actions}>
        <Button type="submit" disabled={busy} aria-busy={busy}>
          {busy ? t('review.saving') : t('review.save')}
        </Button>
        <Button variant="secondary" onClick={() => setEditing(false)} disabled={busy}>
          {t('review.cancel')}
        </Button>
      </div>
    </form>
  );
}
