// The product form Add Product and Edit Product share: name, description, how it is sold (unit, size,
// price per unit, average weight per unit, the ₦ per kg it makes, stock in the unit, status), cultural and
// health text, photos. It checks the values the way the catalog will (the catalog decides) and calls
// onSubmit only when they pass; the page sends the request. Slots take what only one page has (tuber type
// and nutrition on Add Product).
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { useToast } from '@tuber/shell-contract';
import {
  Button,
  PRODUCT_STATUSES,
  SELLING_UNITS,
  TUBER_SIZES,
  type ProductStatus,
  type SellingUnit,
  type TuberSize,
} from '@tuber/ui';
import { useFarmerT } from '../i18n/t.js';
import { sizeLabel, unitLabel } from '../i18n/words.js';
import { InlineSpinner } from '../shared/InlineSpinner.js';
import { PhotoPicker } from './PhotoPicker.js';
import { PriceGuideLine } from './PriceGuideLine.js';
import { checkUploadedCount } from './imageRules.js';
import {
  DEFAULT_UNIT_WEIGHT,
  LIMITS,
  becomesSoldOut,
  checkProductForm,
  priceLabel,
  pricePerKgText,
  quantityLabel,
  unitWeightLabel,
  type CheckOptions,
  type FormField,
  type FormProblems,
  type ProductFormValues,
} from './productForm.js';
import { isUploading, uploadedImageIds } from './uploads.js';
import type { usePhotoUploads } from './usePhotoUploads.js';
import styles from './addProduct.module.css';

interface ProductFormProps {
  /** The form's accessible name: "Add Product", "Edit Product". */
  label: string;
  values: ProductFormValues;
  onChange: (values: ProductFormValues) => void;
  checkOptions: CheckOptions;
  photos: ReturnType<typeof usePhotoUploads>;
  /** Why the photos cannot be changed, when they cannot. */
  photosLocked?: string;
  busy: boolean;
  submitLabel: string;
  onSubmit: () => void;
  /** After the photos: the tuber type (Add Product) or what it is (Edit Product), tied to its problem message. */
  tuberField?: (checked: CheckedField) => ReactNode;
  /** After everything else, before the buttons (nutrition). */
  children?: ReactNode;
  /** Next to the submit button (Cancel). */
  secondaryAction?: ReactNode;
  /** The farm's location: the price guide at the price field asks for its figures (issue 27). */
  farmLocation?: string | undefined;
}

/** What a field rendered by a page needs to show its problem the way the form's own fields do. */
export interface CheckedField {
  inputProps: { 'data-field': FormField; 'aria-invalid': true | undefined; 'aria-describedby': string | undefined };
  problem: ReactNode;
}

const FIELD_ORDER: FormField[] = [
  'productName',
  'description',
  'price',
  'unitWeightKg',
  'quantity',
  'nextHarvest',
  'cultural',
  'tuberType',
];

export function ProductForm(props: ProductFormProps) {
  const { label, values, onChange, checkOptions, photos, photosLocked, busy, submitLabel, onSubmit } = props;
  const toast = useToast();
  const t = useFarmerT();
  const id = useId();
  const field = (name: string) => `${id}-${name}`;
  const form = useRef<HTMLFormElement>(null);
  const [problems, setProblems] = useState<FormProblems>({});
  const [checked, setChecked] = useState(0);
  const uploading = isUploading(photos.state);

  // After a failed check, the first field with a problem gets the focus (and the screen reader its message).
  useEffect(() => {
    if (checked === 0) return;
    const first = FIELD_ORDER.find((name) => problems[name]);
    if (first) form.current?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
  }, [checked]); // eslint-disable-line react-hooks/exhaustive-deps

  // A problem goes away as soon as its field is right; new ones wait for the next submit.
  useEffect(() => {
    setProblems((was) => {
      if (Object.keys(was).length === 0) return was;
      const now = checkProductForm(values, checkOptions);
      return Object.fromEntries(Object.keys(was).flatMap((k) => (now[k as FormField] ? [[k, now[k as FormField]]] : [])));
    });
  }, [values]); // eslint-disable-line react-hooks/exhaustive-deps

  type NumberField = keyof typeof LIMITS & FormField;
  const update = (change: Partial<ProductFormValues>) => onChange({ ...values, ...change });
  const set = (name: keyof ProductFormValues) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
    update({ [name]: event.target.value });

  function chooseUnit(event: ChangeEvent<HTMLSelectElement>) {
    const unit = event.target.value as SellingUnit;
    const weight = values.unitWeightKg.trim() === '' ? (DEFAULT_UNIT_WEIGHT[unit] ?? '') : values.unitWeightKg;
    update({ unit, unitWeightKg: unit === 'kg' ? '' : weight, tuberSize: unit === 'tuber' ? values.tuberSize : '' });
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (uploading || busy) return;
    const found = checkProductForm(values, checkOptions);
    setProblems(found);
    setChecked((n) => n + 1);
    if (Object.keys(found).length > 0) return;
    if (!photosLocked) {
      const imageProblem = checkUploadedCount(uploadedImageIds(photos.state).length);
      if (imageProblem) {
        toast.error(imageProblem);
        return;
      }
    }
    onSubmit();
  }

  /** Props that tie an input to its problem message (and the price to the price guide's line). */
  const checkedInput = (name: FormField): CheckedField['inputProps'] => {
    const described = [problems[name] ? field(`${name}-problem`) : '', name === 'price' ? field('price-guide') : ''].filter(Boolean);
    return {
      'data-field': name,
      'aria-invalid': problems[name] ? true : undefined,
      'aria-describedby': described.length > 0 ? described.join(' ') : undefined,
    };
  };
  const problem = (name: FormField) =>
    problems[name] ? (
      <span id={field(`${name}-problem`)} className={styles.problem}>
        {problems[name]}
      </span>
    ) : null;

  /** One number field (price, average weight, quantity): label, input with its limits, problem, hint. */
  const numberField = (name: NumberField, id: string, inputName: string, text: string, hint?: ReactNode) => (
    <div className={styles.field}>
      <label htmlFor={field(id)}>{text}</label>
      <input
        id={field(id)}
        name={inputName}
        type="number"
        inputMode="decimal"
        min={LIMITS[name].min}
        max={LIMITS[name].max}
        step={0.01}
        required
        value={values[name]}
        onChange={set(name)}
        {...checkedInput(name)}
      />
      {problem(name)}
      {hint}
    </div>
  );

  const perKg = pricePerKgText(values);
  const disabled = uploading || busy;

  return (
    <form ref={form} className={styles.form} onSubmit={submit} aria-label={label} noValidate>
      <div className={styles.field}>
        <label htmlFor={field('name')}>{t('form.product_name')}</label>
        <input
          id={field('name')}
          name="product_name"
          type="text"
          required
          maxLength={LIMITS.name}
          value={values.productName}
          onChange={set('productName')}
          {...checkedInput('productName')}
        />
        {problem('productName')}
      </div>

      <div className={styles.field}>
        <label htmlFor={field('description')}>{t('form.description')}</label>
        <textarea
          id={field('description')}
          name="description"
          rows={6}
          required
          maxLength={LIMITS.text}
          value={values.description}
          onChange={set('description')}
          {...checkedInput('description')}
        />
        {problem('description')}
      </div>

      <fieldset className={styles.group}>
        <legend className={styles.legend}>{t('form.how_you_sell')}</legend>
        <div className={styles.pair}>
          <div className={styles.field}>
            <label htmlFor={field('unit')}>{t('form.selling_unit')}</label>
            <select id={field('unit')} name="unit" value={values.unit} onChange={chooseUnit}>
              {SELLING_UNITS.map((unit) => (
                <option key={unit} value={unit}>
                  {unitLabel(unit)}
                </option>
              ))}
            </select>
          </div>
          {values.unit === 'tuber' && (
            <div className={styles.field}>
              <label htmlFor={field('size')}>{t('form.tuber_size')}</label>
              <select
                id={field('size')}
                name="tuber_size"
                value={values.tuberSize}
                onChange={(e) => update({ tuberSize: e.target.value as TuberSize | '' })}
              >
                <option value="">{t('size.any')}</option>
                {TUBER_SIZES.map((size) => (
                  <option key={size} value={size}>
                    {sizeLabel(size)}
                  </option>
                ))}
              </select>
            </div>
          )}
        </div>

        <div className={styles.pair}>
          {numberField('price', 'price', 'price', priceLabel(values.unit))}
          {values.unit !== 'kg' && numberField('unitWeightKg', 'weight', 'unit_weight_kg', unitWeightLabel(values.unit))}
        </div>
        {/* "Works out at ₦400.00 per kg" once it can be worked out; until then what to enter for it (issue 25:
            it read "Works out at enter the price"). */}
        <p className={styles.perKg}>
          {perKg ? <span id={field('per-kg-label')}>{t('form.works_out_at')}</span> : null}
          <output
            htmlFor={`${field('price')} ${field('weight')}`}
            {...(perKg ? { 'aria-labelledby': field('per-kg-label') } : {})}
            aria-live="polite"
            data-testid="price-per-kg"
          >
            {perKg ?? (values.unit === 'kg' ? t('form.enter_price') : t('form.enter_price_and_weight'))}
          </output>
        </p>
        <PriceGuideLine id={field('price-guide')} values={values} location={props.farmLocation} />

        {numberField(
          'quantity',
          'quantity',
          'quantity',
          quantityLabel(values.unit),
          becomesSoldOut(values) && <span className={styles.hint}>{t('form.sold_out_hint')}</span>,
        )}

        <fieldset className={styles.statusGroup}>
          <legend className={styles.statusLegend}>{t('form.status')}</legend>
          <div className={styles.statusChoices}>
            {PRODUCT_STATUSES.map((status) => (
              <label key={status} className={styles.statusChoice}>
                <input
                  type="radio"
                  name="status"
                  value={status}
                  checked={values.status === status}
                  onChange={() => update({ status: status as ProductStatus })}
                />
                {status === 'next_harvest' ? t('status.choice.next_harvest') : t(`status.${status}`)}
              </label>
            ))}
          </div>
          {values.status === 'next_harvest' && (
            <div className={styles.field}>
              <label htmlFor={field('harvest')}>{t('form.next_harvest_from')}</label>
              <input
                id={field('harvest')}
                name="next_harvest"
                type="date"
                min={checkOptions.today}
                required
                value={values.nextHarvest}
                onChange={set('nextHarvest')}
                {...checkedInput('nextHarvest')}
              />
              {problem('nextHarvest')}
            </div>
          )}
        </fieldset>
      </fieldset>

      <div className={styles.field}>
        <label htmlFor={field('cultural')}>{t('form.cultural')}</label>
        <textarea
          id={field('cultural')}
          name="cultural"
          rows={4}
          required
          maxLength={LIMITS.text}
          value={values.cultural}
          onChange={set('cultural')}
          {...checkedInput('cultural')}
        />
        {problem('cultural')}
      </div>

      <div className={styles.field}>
        <label htmlFor={field('health')}>
          {t('form.health')} <span className={styles.optional}>{t('common.optional')}</span>
        </label>
        <textarea id={field('health')} name="health" rows={4} maxLength={LIMITS.text} value={values.health} onChange={set('health')} />
      </div>

      <div className={styles.field}>
        <label htmlFor={field('images')}>{t('form.photos')}</label>
        <PhotoPicker
          id={field('images')}
          photos={photos.state.photos}
          disabled={busy}
          {...(photosLocked ? { locked: photosLocked } : {})}
          onChoose={photos.choose}
          onRemove={photos.remove}
          onMoveFirst={photos.moveFirst}
        />
      </div>

      {props.tuberField?.({ inputProps: checkedInput('tuberType'), problem: problem('tuberType') })}
      {props.children}

      <div className={styles.actions}>
        <Button type="submit" disabled={disabled} aria-busy={disabled}>
          {disabled && <InlineSpinner />}
          {submitLabel}
        </Button>
        {props.secondaryAction}
        {uploading && <span className={styles.hint}>{t('form.uploading_photos')}</span>}
      </div>
    </form>
  );
}
