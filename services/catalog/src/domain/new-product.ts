// The rules a product must meet beyond its schema (spec §5, issue 11, ADR 0030), enforced on the
// server: when it is posted, and on the result of every edit (checkSelling is shared by both).
import {
  IMAGE_COUNT_MESSAGE,
  IMAGES_PER_PRODUCT,
  SELLING_UNIT_LABELS,
  type NewProduct,
  type ProblemCode,
  type ProblemParams,
  type ProductChange,
  type ProductStatus,
  type SellingUnit,
  type TuberSize,
} from '@tuber/contracts';
import { problem, type Problem } from '@tuber/kit';
import { koboToNaira, nairaToKobo } from './money.js';
import { pricePerKgKobo } from './product.js';

export interface FarmerFacts {
  tuber: string[];
}

export interface ImageFacts {
  image_id: string;
  farmer_id: string;
}

/** Answered with 409 when another product already took one of the photos. */
export const IMAGES_IN_USE_MESSAGE = 'These photos already belong to another product. Upload new photos for this one.';
/** Answered with 400 when a photo is unknown or another farmer's. */
export const OWN_PHOTOS_MESSAGE = 'Use photos you uploaded yourself; upload them again if this keeps happening.';

export const SELLING_MESSAGES = {
  price: 'Price must be 0 or more, with at most 2 decimals.',
  quantity: 'Quantity must be 0 or more, with at most 2 decimals.',
  quantityMissing: 'Give the quantity you have in stock (quantity, 0 or more, in the unit you sell in).',
  kgAndQuantity: 'Send the stock either as quantity (in the unit you sell in) or as kg (older clients), not both.',
  unitWeight: 'The weight of one unit must be more than 0 kg, with at most 2 decimals.',
  kgUnitWeight: 'A product sold per kg weighs 1 kg per unit: leave out unit_weight_kg or send 1.',
  nextHarvestMissing: 'Give the date of the next harvest (next_harvest, YYYY-MM-DD, today or later).',
  nextHarvestInvalid: 'The next harvest date must be a real calendar day, written YYYY-MM-DD.',
  nextHarvestWithoutStatus: 'A next harvest date goes only with the status "next_harvest"; leave it out or set that status.',
} as const;

const label = (unit: SellingUnit) => SELLING_UNIT_LABELS[unit];

/** Kept with at most 2 decimals (kg, counts): false for a third decimal, a negative or a non-number. */
export function twoDecimals(value: number): boolean {
  return nairaToKobo(value) !== undefined;
}

/** Today's calendar day in Nigeria (Africa/Lagos), YYYY-MM-DD. */
export function lagosToday(now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Lagos', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

const isCalendarDay = (day: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
};

/** How a product is sold, as a post or an edit would leave it: what checkSelling judges. */
export interface SellingTerms {
  /** Naira per selling unit. */
  price: number;
  unit: SellingUnit;
  tuber_size?: TuberSize | undefined;
  unit_weight_kg?: number | undefined;
  quantity: number;
  status: ProductStatus;
  next_harvest?: string | undefined;
}

/** The selling fields as stored. */
export interface StoredSelling {
  price_kobo: number;
  unit: SellingUnit;
  tuber_size?: TuberSize;
  unit_weight_kg: number;
  quantity: number;
  status: ProductStatus;
  next_harvest?: string;
  price_per_kg_kobo: number;
}

export type Verdict<T> = T | { problem: Problem };

const refused = (code: ProblemCode, message: string, params?: ProblemParams) => ({ problem: problem(code, message, params) });

/**
 * The rules of selling units, stock and status, applied to a whole product (a post, or the result
 * of an edit). `checkDate`: whether the next-harvest date was given now and must be today or later
 * (an edit that leaves a stored date alone keeps it).
 */
export function checkSelling(terms: SellingTerms, options: { today: string; checkDate?: boolean }): Verdict<StoredSelling> {
  const priceKobo = nairaToKobo(terms.price);
  if (priceKobo === undefined) return refused('PRICE_INVALID', SELLING_MESSAGES.price);
  if (!twoDecimals(terms.quantity)) return refused('QUANTITY_DECIMALS', SELLING_MESSAGES.quantity);

  let unitWeight = terms.unit_weight_kg;
  if (terms.unit === 'kg') {
    if (unitWeight !== undefined && unitWeight !== 1) return refused('KG_UNIT_WEIGHT', SELLING_MESSAGES.kgUnitWeight);
    unitWeight = 1;
  } else if (unitWeight === undefined) {
    return refused('UNIT_WEIGHT_MISSING', `Give the average weight in kg of what you sell ${label(terms.unit)} (unit_weight_kg).`);
  }
  if (!(unitWeight > 0) || !twoDecimals(unitWeight)) return refused('UNIT_WEIGHT_INVALID', SELLING_MESSAGES.unitWeight);

  if (terms.tuber_size !== undefined && terms.unit !== 'tuber') {
    return refused('TUBER_SIZE_PER_TUBER', `A tuber size goes only with products sold per tuber; this one is sold ${label(terms.unit)}.`);
  }

  let status = terms.status;
  if (status === 'next_harvest') {
    if (terms.next_harvest === undefined) return refused('NEXT_HARVEST_MISSING', SELLING_MESSAGES.nextHarvestMissing);
    if (!isCalendarDay(terms.next_harvest)) return refused('NEXT_HARVEST_INVALID', SELLING_MESSAGES.nextHarvestInvalid);
    if ((options.checkDate ?? true) && terms.next_harvest < options.today) {
      return refused('NEXT_HARVEST_PAST', `The next harvest date must be today or later (today is ${options.today} in Lagos).`, {
        today: options.today,
      });
    }
  } else if (terms.next_harvest !== undefined) {
    return refused('NEXT_HARVEST_WITHOUT_STATUS', SELLING_MESSAGES.nextHarvestWithoutStatus);
  }
  // Nothing left to sell: "available" would be a promise the farmer cannot keep.
  if (status === 'available' && terms.quantity === 0) status = 'sold_out';

  return {
    price_kobo: priceKobo,
    unit: terms.unit,
    ...(terms.tuber_size !== undefined ? { tuber_size: terms.tuber_size } : {}),
    unit_weight_kg: unitWeight,
    quantity: terms.quantity,
    status,
    ...(status === 'next_harvest' ? { next_harvest: terms.next_harvest! } : {}),
    price_per_kg_kobo: pricePerKgKobo(priceKobo, unitWeight),
  };
}

/** The 2–5 distinct photos rule. */
export function checkImageCount(imageIds: string[]): Verdict<true> {
  const distinct = new Set(imageIds);
  if (distinct.size !== imageIds.length || distinct.size < IMAGES_PER_PRODUCT.min || distinct.size > IMAGES_PER_PRODUCT.max) {
    return refused('IMAGE_COUNT', IMAGE_COUNT_MESSAGE, { min: IMAGES_PER_PRODUCT.min, max: IMAGES_PER_PRODUCT.max });
  }
  return true;
}

/**
 * How a new product is sold. Older clients send `kg` and no unit: that is a product sold per kg
 * with `kg` as its quantity.
 */
export function sellingTermsOf(product: NewProduct): Verdict<SellingTerms> {
  const unit = product.unit ?? 'kg';
  if (product.kg !== undefined && product.quantity !== undefined) return refused('KG_AND_QUANTITY', SELLING_MESSAGES.kgAndQuantity);
  if (product.kg !== undefined && unit !== 'kg') {
    return refused('KG_FOR_KG_ONLY', `kg is the stock of a product sold per kg; for one sold ${label(unit)}, send quantity in that unit.`);
  }
  const quantity = product.quantity ?? product.kg;
  if (quantity === undefined) return refused('QUANTITY_MISSING', SELLING_MESSAGES.quantityMissing);
  return {
    price: product.price,
    unit,
    tuber_size: product.tuber_size,
    unit_weight_kg: product.unit_weight_kg,
    quantity,
    status: product.status ?? 'available',
    next_harvest: product.next_harvest,
  };
}

/** Returns how the product is sold as stored, or a person-readable reason it cannot be posted. */
export function checkNewProduct(
  product: NewProduct,
  farmer: FarmerFacts,
  farmerId: string,
  images: ImageFacts[],
  today: string = lagosToday(),
): Verdict<{ priceKobo: number; selling: StoredSelling }> {
  const count = checkImageCount(product.image_ids);
  if (count !== true) return count;
  const terms = sellingTermsOf(product);
  if ('problem' in terms) return terms;
  const selling = checkSelling(terms, { today });
  if ('problem' in selling) return selling;
  if (!farmer.tuber.includes(product.tuber_type)) {
    const grown = farmer.tuber.length ? farmer.tuber.join(', ') : 'none yet';
    return refused('TUBER_NOT_GROWN', `Choose a tuber type you grow (${grown}).`);
  }
  const known = new Map(images.map((image) => [image.image_id, image]));
  for (const id of product.image_ids) {
    const image = known.get(id);
    if (!image || image.farmer_id !== farmerId) return refused('OWN_PHOTOS_ONLY', OWN_PHOTOS_MESSAGE);
  }
  return { priceKobo: selling.price_kobo, selling };
}

/** The selling fields of a stored product, as far as an edit needs them. */
export interface CurrentSelling {
  price_kobo: number;
  unit: string;
  tuber_size?: string | null | undefined;
  unit_weight_kg: number;
  quantity: number;
  status: string;
  next_harvest?: string | null | undefined;
}

/**
 * How a product is sold after an edit: the change over what is stored. Changing the unit drops
 * the stored unit weight (a heap does not weigh what a kg does) and a tuber size that no longer
 * applies; leaving the status to "next_harvest" drops its date; restocking a product that sold out
 * by reaching 0 makes it available again unless the edit sets a status.
 */
export function sellingAfterChange(current: CurrentSelling, change: ProductChange): SellingTerms {
  const currentUnit = current.unit as SellingUnit;
  const unit = change.unit ?? currentUnit;
  const unitChanged = unit !== currentUnit;
  const unitWeight = change.unit_weight_kg ?? (unit === 'kg' ? 1 : unitChanged ? undefined : current.unit_weight_kg);
  const tuberSize =
    change.tuber_size === null
      ? undefined
      : (change.tuber_size ?? (unitChanged && unit !== 'tuber' ? undefined : ((current.tuber_size ?? undefined) as TuberSize | undefined)));
  const quantity = change.quantity ?? current.quantity;
  const restocked = current.status === 'sold_out' && current.quantity === 0 && quantity > 0;
  const status = change.status ?? (restocked ? 'available' : (current.status as ProductStatus));
  const nextHarvest =
    change.next_harvest === null
      ? undefined
      : (change.next_harvest ?? (status === 'next_harvest' ? (current.next_harvest ?? undefined) : undefined));
  return {
    price: change.price ?? koboToNaira(current.price_kobo),
    unit,
    tuber_size: tuberSize,
    unit_weight_kg: unitWeight,
    quantity,
    status,
    next_harvest: nextHarvest,
  };
}

/** Whether an edit gives the next-harvest date now (then it must be today or later). */
export const setsHarvestDate = (change: ProductChange) => typeof change.next_harvest === 'string' || change.status !== undefined;
