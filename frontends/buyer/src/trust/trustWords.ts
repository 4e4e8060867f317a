// A farmer's figures as a buyer reads them at a glance (issue 26): "Usually answers within 2 hours",
// "Fulfilled 9 of 10 accepted requests", or "New on Tuber Market" below 3 reviews.
import type { T } from '../i18n/t.js';
import { RATING_SHOWN_FROM, type FarmerRating, type FarmerTrust } from './trustTypes.js';

/** The mean as people write it: one decimal, in the reader's language ("4.3"). */
export const meanText = (mean: number, locale?: string) =>
  new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(mean);

/** Whether the rating has a number to show (3 reviews or more); else the farmer is "new". */
export const hasMean = (rating: FarmerRating | undefined): rating is Required<FarmerRating> =>
  !!rating && rating.count >= RATING_SHOWN_FROM && typeof rating.mean === 'number';

/** The median wait for a first answer, in words; undefined without one. */
export function answerSpeedText(minutes: number | undefined, t: T): string | undefined {
  if (minutes === undefined) return undefined;
  if (minutes <= 60) return t('trust.answers-within-hour');
  const hours = Math.ceil(minutes / 60);
  if (hours < 24) return t('trust.answers-within-hours', { hours });
  return t('trust.answers-within-days', { days: Math.ceil(hours / 24) });
}

/** The response figures as lines, in the order a buyer asks: how fast, how often, how reliably. */
export function responseLines(trust: FarmerTrust, t: T): string[] {
  const figures = trust.response;
  if (!figures) return [];
  const lines: string[] = [];
  const speed = answerSpeedText(figures.median_answer_minutes, t);
  if (speed) lines.push(speed);
  if (figures.answered_of > 0) lines.push(t('trust.answered-day', { answered: figures.answered_within_day, of: figures.answered_of }));
  if (figures.fulfilled_of > 0) lines.push(t('trust.fulfilled', { fulfilled: figures.fulfilled, of: figures.fulfilled_of }));
  return lines;
}
