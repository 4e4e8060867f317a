// The price guide in the signed-in front ends (issue 27, docs/adr/0072), shared as library code (each front end
// bundles its copy, docs/adr/0054): the farmer's line at the price field ("This week yam sold for ₦1,050–1,300 per
// kg (32 sales)", with a gentle note when the price typed is far outside), and the buyer's marker on a card and the
// product page ("Above this week's price", the range behind a tap). Presentational only: the front end fetches the
// figures and passes the tuber's name and the unit's words in its own language; no figures, nothing shown.
import { useId, useState, type ReactNode } from 'react';
import { farOutside, pricePosition, type PriceNow, type PricePosition } from '@tuber/contracts';
import { bandInUnit, guideBand, nairaRangeText } from '../format/priceGuide.js';
import { useT } from '../i18n/catalogue.js';
import { problemCatalogue } from '../problems.js';
import styles from './priceGuide.module.css';

type Translate = ReturnType<typeof useT>;

/** "This week yam sold for ₦1,050–1,300 per kg (32 sales)", "Last week yam listings asked …"; null without figures. */
function rangeLine(t: Translate, now: PriceNow, tuberName: string, unitLabel: string, kgPerUnit: number): ReactNode {
  const shown = guideBand(now);
  if (!shown) return null;
  const { low, high } = bandInUnit(shown.band, kgPerUnit);
  const range = nairaRangeText(low, high);
  const line = t(shown.kind === 'sold' ? 'guide.sold' : 'guide.asked', {
    period: now.period ?? 'this_week',
    tuber: tuberName,
    range,
    unit: unitLabel,
    count: shown.band.count,
  });
  // The range stays on one line on a phone (it would break after its dash).
  const at = line.indexOf(range);
  if (at < 0) return line;
  return (
    <>
      {line.slice(0, at)}
      <span className={styles.range}>{range}</span>
      {line.slice(at + range.length)}
    </>
  );
}

export interface PriceHintProps {
  /** The figures (GET /api/catalog/prices/{tuber}/now); undefined while they load or when they could not be had: nothing shows. */
  now: PriceNow | undefined;
  /** The tuber's name in the reader's language, as it reads inside a sentence ("yam", "iṣu"). */
  tuberName: string;
  /** The words after a price for the unit the range is given in ("per kg", "per heap"), in the reader's language. */
  unitLabel: string;
  /** Average kg in that unit (1 for kg): the range is the band per kg times this. */
  kgPerUnit: number;
  /** The price typed, in naira per kg: a note when it is far outside the band. Never blocks anything. */
  pricePerKg?: number | null;
  /** For the price input's aria-describedby. */
  id?: string;
}

/** The farmer's line at the price field of Add Product and Edit Product. */
export function PriceHint({ now, tuberName, unitLabel, kgPerUnit, pricePerKg, id }: PriceHintProps) {
  const t = useT(problemCatalogue);
  if (!now) return null;
  const line = rangeLine(t, now, tuberName, unitLabel, kgPerUnit);
  const shown = guideBand(now);
  const far = shown && typeof pricePerKg === 'number' && Number.isFinite(pricePerKg) ? farOutside(pricePerKg, shown.band) : null;
  return (
    <div className={styles.hint} id={id} data-testid="price-hint" data-scope={now.scope}>
      <p className={styles.line} data-testid="price-hint-line">
        {line ?? t('guide.none', { tuber: tuberName })}
      </p>
      {/* Polite: it follows the typing, and is a nudge, not an error. */}
      <p className={styles.note} aria-live="polite" data-testid="price-hint-note" data-far={far ?? undefined}>
        {far && shown
          ? t(`guide.far_${far}_${shown.kind}`, { tuber: tuberName, period: now.period ?? 'this_week' })
          : null}
      </p>
    </div>
  );
}

export interface PriceMarkerProps {
  /** The tuber's figures; undefined (loading, failed, none fetched) or without a band: no marker. */
  now: PriceNow | undefined;
  /** The product's naira per kg. */
  pricePerKg: number;
  /** The tuber's name in the reader's language, as it reads inside a sentence. */
  tuberName: string;
  /** "per kg" in the reader's language: the range behind the tap is per kg. */
  perKgLabel: string;
}

const POSITION_SIGN: Record<PricePosition, string> = { below: '↓', around: '≈', above: '↑' };

/** The buyer's "Below / Around / Above this week's price", with the range behind a tap (a button, aria-expanded). */
export function PriceMarker({ now, pricePerKg, tuberName, perKgLabel }: PriceMarkerProps) {
  const t = useT(problemCatalogue);
  const id = useId();
  const [open, setOpen] = useState(false);
  const shown = now ? guideBand(now) : null;
  if (!now || !shown || !Number.isFinite(pricePerKg)) return null;
  const position = pricePosition(pricePerKg, shown.band);
  const period = now.period ?? 'this_week';
  return (
    <div className={styles.marker} data-testid="price-marker" data-position={position}>
      <button
        type="button"
        className={styles.toggle}
        aria-expanded={open}
        aria-controls={`${id}-range`}
        onClick={() => setOpen((was) => !was)}
        data-testid="price-marker-toggle"
      >
        <span className={`${styles.chip} ${styles[position]}`}>
          <span aria-hidden="true">{POSITION_SIGN[position]}</span>
          {t(`guide.${position}`, { period })}
          <span className={styles.chevron} aria-hidden="true" />
        </span>
      </button>
      <p id={`${id}-range`} className={styles.revealed} hidden={!open} data-testid="price-marker-range">
        {rangeLine(t, now, tuberName, perKgLabel, 1)}
      </p>
    </div>
  );
}
