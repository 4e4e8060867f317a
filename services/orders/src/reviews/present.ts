// A review as the API answers it (contracts/src/reviews.ts Review).
import { REVIEW_EDIT_DAYS, type Review } from '@tuber/contracts';
import type { ReviewDoc } from './model.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export function presentReview(doc: ReviewDoc): Review {
  return {
    request_id: doc.request_id,
    number: doc.number,
    farmer_id: doc.farmer_id,
    buyer_name: doc.buyer_name,
    stars: doc.stars,
    text: doc.text ?? '',
    products: doc.products ?? [],
    created_at: new Date(doc.created_at).toISOString(),
    updated_at: new Date(doc.updated_at).toISOString(),
    editable_until: new Date(new Date(doc.created_at).getTime() + REVIEW_EDIT_DAYS * DAY_MS).toISOString(),
    ...(doc.answer_text && doc.answer_at ? { answer: { text: doc.answer_text, at: new Date(doc.answer_at).toISOString() } } : {}),
  };
}
