// A farmer's trust figures (issue 26), computed from what the orders service records: the rating from the
// reviews, the response figures from the requests' histories. Pure functions, checked against figures
// worked out by hand (test/unit/trust-figures.test.ts).
import { RESPONSE_SHOWN_FROM, RESPONSE_WINDOW_DAYS, type ResponseFigures } from '@tuber/contracts';

const DAY_MS = 24 * 60 * 60 * 1000;

export { ratingOf } from '@tuber/contracts';

/** What others see of a buyer on a review: the first name and the initial of the last ("Ada O."). */
export function publicBuyerName(full: string): string {
  const words = full.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '';
  const [first, ...rest] = words;
  const last = rest.at(-1);
  return last ? `${first} ${Array.from(last)[0]!.toLocaleUpperCase()}.` : first!;
}

export interface RequestHistory {
  created_at: Date;
  history: readonly { status: string; at: Date; by: 'buyer' | 'farmer' }[];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The response figures of a farmer's requests received in the last RESPONSE_WINDOW_DAYS before `now`; undefined
 * below RESPONSE_SHOWN_FROM requests. A request the buyer cancelled before any answer does not count: the
 * farmer had no chance to answer it. The farmer's first answer is their first accept, decline or cancel.
 */
export function responseFigures(requests: readonly RequestHistory[], now: Date): ResponseFigures | undefined {
  const since = now.getTime() - RESPONSE_WINDOW_DAYS * DAY_MS;
  let counted = 0;
  const answerMinutes: number[] = [];
  let withinDay = 0;
  let answeredOf = 0;
  let fulfilled = 0;
  let fulfilledOf = 0;
  for (const request of requests) {
    const created = request.created_at.getTime();
    if (created < since || created > now.getTime()) continue;
    const entries = [...request.history].sort((a, b) => a.at.getTime() - b.at.getTime());
    const answer = entries.find((entry) => entry.by === 'farmer' && entry.status !== 'sent');
    const buyerCancelledFirst = entries.find((entry) => entry.status === 'cancelled' && entry.by === 'buyer');
    if (!answer && buyerCancelledFirst) continue;
    if (answer && buyerCancelledFirst && buyerCancelledFirst.at < answer.at) continue;
    counted += 1;
    if (answer) {
      const waited = answer.at.getTime() - created;
      answerMinutes.push(waited / 60_000);
      answeredOf += 1;
      if (waited <= DAY_MS) withinDay += 1;
    } else if (now.getTime() - created > DAY_MS) {
      answeredOf += 1; // a day has gone by without an answer
    }
    if (entries.some((entry) => entry.status === 'accepted')) {
      if (entries.some((entry) => entry.status === 'fulfilled')) {
        fulfilled += 1;
        fulfilledOf += 1;
      } else if (entries.some((entry) => entry.status === 'cancelled')) fulfilledOf += 1;
    }
  }
  if (counted < RESPONSE_SHOWN_FROM) return undefined;
  return {
    requests: counted,
    ...(answerMinutes.length ? { median_answer_minutes: Math.round(median(answerMinutes)) } : {}),
    answered_within_day: withinDay,
    answered_of: answeredOf,
    fulfilled,
    fulfilled_of: fulfilledOf,
  };
}
