// The product form's values (Add Product and Edit Product share it), the checks it makes before sending
// (they mirror the catalog's, which decides: contracts NewProduct/ProductChange, ADR 0030), and how the
// values become the catalog's requests: POST /api/catalog/products, or PATCH /api/catalog/products/:id with
// only what changed plus the revision the farmer edited.
import type { NewProduct, Nutrition, Product, ProductChange } from '@tuber/contracts';
import { koboToNaira, nairaToKobo, pricePerKg, statusOf, unitOf, type ProductStatus, type SellingUnit, type TuberSize } from '@tuber/ui';
import { tr } from '../i18n/t.js';
import { perKgLongText, unitLabel, unitPlural } from '../i18n/words.js';

/** What the inputs hold: text exactly as typed, and the choices. */
export interface ProductFormValues {
  productName: string;
  description: string;
  /** Naira per selling unit. */
  price: string;
  unit: SellingUnit;
  /** '' is "any size" (only with unit tuber). */
  tuberSize: TuberSize | '';
  /** Average kg in one unit; not asked when the unit is kg. */
  unitWeightKg: string;
  /** Stock in the selling unit (the spec's "Number of KG" when sold per kg). */
  quantity: string;
  status: ProductStatus;
  /** YYYY-MM-DD, with status next_harvest. */
  nextHarvest: string;
  cultural: string;
  health: string;
  /** '' is the "none" choice. */
  tuberType: string;
}

export const emptyProductForm: ProductFormValues = {
  productName: '',
  description: '',
  price: '',
  unit: 'kg',
  tuberSize: '',
  unitWeightKg: '',
  quantity: '',
  status: 'available',
  nextHarvest: '',
  cultural: '',
  health: '',
  tuberType: '',
};

/** The catalog's limits (contracts/src/api.ts). */
export const LIMITS = {
  price: { min: 0, max: 100_000_000 },
  quantity: { min: 0, max: 1_000_000 },
  unitWeightKg: { min: 0.01, max: 5_000 },
  text: 5_000,
  name: 120,
} as const;

/** What a 50 kg bag weighs, offered when the unit is chosen and no weight was typed yet. */
export const DEFAULT_UNIT_WEIGHT: Partial<Record<SellingUnit, string>> = { bag_50kg: '50' };

/**
 * A typed amount as a number with at most 2 decimals, rounded half up on the decimal text itself: the inputs
 * step by 0.01, and "1.005" must not become 1.00 through binary floating point (1.005 * 100 = 100.4999…).
 */
export function twoDecimals(typed: string): number {
  const text = typed.trim();
  const plain = /^(\d*)(?:\.(\d*))?$/.exec(text);
  if (plain && (plain[1] || plain[2])) {
    const fraction = (plain[2] ?? '').padEnd(3, '0');
    const kobo = Number(plain[1] || '0') * 100 + Number(fraction.slice(0, 2)) + (Number(fraction[2]) >= 5 ? 1 : 0);
    return koboToNaira(kobo);
  }
  const value = Number(text);
  if (text === '' || !Number.isFinite(value)) throw new RangeError(`not a number: "${typed}"`);
  return koboToNaira(nairaToKobo(value)); // e.g. "1e3", which number inputs also accept
}

/** twoDecimals, or null for text that is not a number. */
export function readAmount(typed: string): number | null {
  try {
    return twoDecimals(typed);
  } catch {
    return null;
  }
}

/** The noun of the unit in the form's labels: "Quantity available (heaps)", "Price per heap (₦)". */
export const quantityLabel = (unit: SellingUnit) => tr('form.quantity_label', { units: unitPlural(unit, 'short') });
export const priceLabel = (unit: SellingUnit) => tr('form.price_label', { unit: unitLabel(unit) });
export const unitWeightLabel = (unit: SellingUnit) => tr('form.weight_label', { unit: unitLabel(unit) });

/** The average kg of one unit the values say: 1 for kg, the typed weight otherwise (null when not a weight). */
export function unitWeightOf(values: Pick<ProductFormValues, 'unit' | 'unitWeightKg'>): number | null {
  if (values.unit === 'kg') return 1;
  const weight = readAmount(values.unitWeightKg);
  return weight !== null && weight > 0 ? weight : null;
}

/** "₦400.00 per kg", computed live as the catalog will (price / average weight, to the kobo); null until known. */
export function pricePerKgText(values: Pick<ProductFormValues, 'price' | 'unit' | 'unitWeightKg'>): string | null {
  const price = readAmount(values.price);
  const weight = unitWeightOf(values);
  if (price === null || weight === null) return null;
  const perKg = pricePerKg(price, weight);
  return perKg === null ? null : perKgLongText(perKg);
}

export type FormField = 'productName' | 'description' | 'price' | 'unitWeightKg' | 'quantity' | 'nextHarvest' | 'cultural' | 'tuberType';
export type FormProblems = Partial<Record<FormField, string>>;

export interface CheckOptions {
  /** YYYY-MM-DD of today, the earliest next-harvest date. */
  today: string;
  /** The product being edited: a next-harvest date it already had is not checked again, and there is no tuber type to choose. */
  original?: Pick<Product, 'next_harvest'>;
}

const plainNumber = (n: number) => new Intl.NumberFormat('en-NG', { maximumFractionDigits: 2 }).format(n);

function amountProblem(typed: string, what: string, limits: { min: number; max: number }, unit = ''): string | null {
  if (typed.trim() === '') return tr('check.enter', { what });
  const value = readAmount(typed);
  if (value === null) return tr('check.not_a_number', { what });
  if (value < limits.min) return tr('check.at_least', { what, limit: plainNumber(limits.min), unit });
  if (value > limits.max) return tr('check.at_most', { what, limit: plainNumber(limits.max), unit });
  return null;
}

/** Each field's problem, in the form's order; empty when the catalog should accept the values. */
export function checkProductForm(values: ProductFormValues, options: CheckOptions): FormProblems {
  const problems: FormProblems = {};
  if (!values.productName.trim()) problems.productName = tr('check.product_name');
  if (!values.description.trim()) problems.description = tr('check.description');
  const price = amountProblem(values.price, tr('check.what.price', { unit: unitLabel(values.unit) }), LIMITS.price);
  if (price) problems.price = price;
  if (values.unit !== 'kg') {
    const weight = amountProblem(values.unitWeightKg, tr('check.what.weight'), LIMITS.unitWeightKg, ' kg');
    if (weight) problems.unitWeightKg = weight;
  }
  const quantity = amountProblem(values.quantity, tr('check.what.quantity'), LIMITS.quantity);
  if (quantity) problems.quantity = quantity;
  if (values.status === 'next_harvest') {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(values.nextHarvest)) problems.nextHarvest = tr('check.next_harvest_date');
    else if (values.nextHarvest < options.today && values.nextHarvest !== options.original?.next_harvest)
      problems.nextHarvest = tr('check.next_harvest_past');
  }
  if (!values.cultural.trim()) problems.cultural = tr('check.cultural');
  if (!options.original && !values.tuberType) problems.tuberType = tr('check.tuber_type');
  return problems;
}

/** What the catalog will store when an available product has no stock (ADR 0030): worth saying before it happens. */
export const becomesSoldOut = (values: Pick<ProductFormValues, 'status' | 'quantity'>): boolean =>
  values.status === 'available' && readAmount(values.quantity) === 0;

/** The fields of sale the values say, as the contract names them (with and without a unit). */
function saleFields(values: ProductFormValues) {
  return {
    price: twoDecimals(values.price),
    unit: values.unit,
    tuber_size: values.unit === 'tuber' && values.tuberSize ? values.tuberSize : null,
    unit_weight_kg: values.unit === 'kg' ? null : twoDecimals(values.unitWeightKg),
    quantity: twoDecimals(values.quantity),
    status: values.status,
    next_harvest: values.status === 'next_harvest' ? values.nextHarvest : null,
  };
}

export function toNewProduct(values: ProductFormValues, imageIds: readonly string[], nutrition: Nutrition | null): NewProduct {
  const health = values.health.trim();
  const sale = saleFields(values);
  return {
    product_name: values.productName.trim(),
    description: values.description.trim(),
    price: sale.price,
    unit: sale.unit,
    ...(sale.tuber_size ? { tuber_size: sale.tuber_size } : {}),
    ...(sale.unit_weight_kg !== null ? { unit_weight_kg: sale.unit_weight_kg } : {}),
    quantity: sale.quantity,
    status: sale.status,
    ...(sale.next_harvest ? { next_harvest: sale.next_harvest } : {}),
    tuber_type: values.tuberType,
    image_ids: [...imageIds],
    cultural: values.cultural.trim(),
    ...(health ? { health } : {}),
    ...(nutrition ? { nutrition } : {}),
  };
}

/** The form as a posted product fills it (edit page). */
export function formFromProduct(product: Product): ProductFormValues {
  const unit = unitOf(product);
  const quantity = typeof product.quantity === 'number' ? product.quantity : product.kg;
  return {
    productName: product.product_name,
    description: product.description,
    price: String(product.price),
    unit,
    tuberSize: unit === 'tuber' && product.tuber_size ? product.tuber_size : '',
    unitWeightKg: unit === 'kg' || typeof product.unit_weight_kg !== 'number' ? '' : String(product.unit_weight_kg),
    quantity: String(quantity),
    status: statusOf(product),
    nextHarvest: product.next_harvest ?? '',
    cultural: product.cultural,
    health: product.health ?? '',
    tuberType: product.tuber_type,
  };
}

const sameIds = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id, i) => id === b[i]);

/**
 * PATCH body for an edit: only the fields whose value differs from the product as loaded, plus its revision
 * (the catalog answers 409 if someone changed it meanwhile). null when nothing changed. `imageIds` is null
 * when the photos cannot be changed here (the product came without its photos' ids).
 */
export function toProductChange(original: Product, values: ProductFormValues, imageIds: readonly string[] | null): ProductChange | null {
  const change: ProductChange = {};
  const text = (typed: string) => typed.trim();
  if (text(values.productName) !== original.product_name) change.product_name = text(values.productName);
  if (text(values.description) !== original.description) change.description = text(values.description);

  const sale = saleFields(values);
  const was = {
    unit: unitOf(original),
    tuber_size: original.tuber_size ?? null,
    unit_weight_kg: typeof original.unit_weight_kg === 'number' ? original.unit_weight_kg : 1,
    quantity: typeof original.quantity === 'number' ? original.quantity : original.kg,
    status: statusOf(original),
    next_harvest: original.next_harvest ?? null,
  };
  if (sale.price !== original.price) change.price = sale.price;
  if (sale.unit !== was.unit) change.unit = sale.unit;
  if (sale.tuber_size !== was.tuber_size) change.tuber_size = sale.tuber_size;
  // For kg the catalog keeps 1 itself; another unit sends its weight when it or the unit changed.
  if (sale.unit_weight_kg !== null && (sale.unit_weight_kg !== was.unit_weight_kg || sale.unit !== was.unit))
    change.unit_weight_kg = sale.unit_weight_kg;
  if (sale.quantity !== was.quantity) change.quantity = sale.quantity;
  if (sale.status !== was.status) change.status = sale.status;
  if (sale.next_harvest !== was.next_harvest) change.next_harvest = sale.next_harvest;

  if (imageIds && !sameIds(imageIds, original.image_ids ?? [])) change.image_ids = [...imageIds];
  if (text(values.cultural) !== original.cultural) change.cultural = text(values.cultural);
  if (text(values.health) !== (original.health ?? '')) change.health = text(values.health);

  if (Object.keys(change).length === 0) return null;
  return { ...change, revision: original.revision };
}
