// The chart's figures as a table (newest week first): for screen readers, and for anyone who wants the numbers.
// Three columns so that it fits a 360 px phone; each figure cell holds the median, the quartiles and the count,
// each on a line of its own.
import type { PriceBand, PriceWeek } from '@tuber/contracts';
import { useFormat, useT } from '@tuber/ui';
import { landingCatalogue } from '../i18n/catalogue.js';
import { countText, notEnoughText, perKgRange, weekText } from './priceText.js';
import { BAND_KINDS, type BandKind } from './priceView.js';
import styles from './prices.module.css';

function FigureCell({ kind, band }: { kind: BandKind; band: PriceBand | null }) {
  const t = useT(landingCatalogue);
  const format = useFormat();
  if (!band) return <td className={styles.none}>{notEnoughText(t, kind)}</td>;
  return (
    <td>
      <span className={styles.median}>{t('prices.median', { price: format.money(band.p50) })}</span>
      <span className={styles.cellDetail}>{perKgRange(t, format, band)}</span>
      <span className={styles.cellDetail}>{countText(t, kind, band.count)}</span>
    </td>
  );
}

export function PriceTable({ weeks, caption }: { weeks: readonly PriceWeek[]; caption: string }) {
  const t = useT(landingCatalogue);
  const newestFirst = [...weeks].reverse();
  return (
    // Focusable, so that a keyboard can scroll it should a long word in some language make it wider than a phone.
    <div className={styles.tableWrap} tabIndex={0} role="region" aria-label={caption}>
      <table className={styles.table} data-testid="price-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('prices.table.week')}</th>
            {BAND_KINDS.map((kind) => (
              <th scope="col" key={kind}>
                {t(kind === 'sold' ? 'prices.legend.sold' : 'prices.legend.asked')}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {newestFirst.map((week) => {
            const merged = Boolean(week.sold?.merged || week.asked?.merged);
            return (
              <tr key={week.week} data-week={week.week}>
                <th scope="row">
                  {weekText(week, true)}
                  {merged && (
                    <sup className={styles.mark}>
                      <span aria-hidden="true">*</span>
                      <span className={styles.visuallyHidden}>{t('prices.merged-mark')}</span>
                    </sup>
                  )}
                </th>
                {BAND_KINDS.map((kind) => (
                  <FigureCell key={kind} kind={kind} band={week[kind]} />
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
