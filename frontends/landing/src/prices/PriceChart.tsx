// The year of weekly prices as a small hand-written SVG: for each of sold and asked, the median as a line and the
// middle half of the prices (lower to upper quartile) as a band around it. Sold is a solid line over a filled band,
// asked a dashed line over a striped band, so the two differ without colour too. A week without a figure breaks the
// line: nothing is drawn that the figures do not say. The SVG stretches to the width (preserveAspectRatio none,
// strokes that do not scale); the ₦/kg and week labels are HTML placed over it, so they stay readable at 360 px.
import { useId } from 'react';
import type { PriceWeek } from '@tuber/contracts';
import { useFormat, useT } from '@tuber/ui';
import { landingCatalogue } from '../i18n/catalogue.js';
import { bandLine, weekText } from './priceText.js';
import {
  BAND_KINDS,
  PLOT_HEIGHT,
  SLOT,
  bandPath,
  bandRuns,
  labelledWeeks,
  medianPath,
  percent,
  yOf,
  xOf,
  type PriceScale,
} from './priceView.js';
import styles from './prices.module.css';

export function PriceChart({ weeks, scale, title }: { weeks: readonly PriceWeek[]; scale: PriceScale; title: string }) {
  const id = useId();
  const t = useT(landingCatalogue);
  const format = useFormat();
  const width = weeks.length * SLOT;
  const runs = { sold: bandRuns(weeks, 'sold'), asked: bandRuns(weeks, 'asked') };
  const span = (kind: 'sold' | 'asked') => {
    const medians = weeks.flatMap((week) => (week[kind] ? [week[kind]!.p50] : []));
    return medians.length
      ? t('prices.chart.span', { low: format.money(Math.min(...medians)), high: format.money(Math.max(...medians)) })
      : t(kind === 'sold' ? 'prices.not-enough-sales' : 'prices.not-enough-listings');
  };
  const summary = t('prices.chart.summary', { sold: span('sold'), asked: span('asked') });
  const labelled = labelledWeeks(weeks.length);

  return (
    <figure className={styles.chart}>
      <figcaption className={styles.chartTitle} id={`${id}-title`}>
        {title}
      </figcaption>
      <ul className={styles.legend} aria-hidden="true">
        {BAND_KINDS.map((kind) => (
          <li key={kind}>
            <svg className={styles.legendSwatch} viewBox="0 0 28 14" width="28" height="14">
              <rect x="0" y="2" width="28" height="10" className={styles[`${kind}Band`]} fill={kind === 'asked' ? `url(#${id}-stripes-legend)` : undefined} />
              <line x1="0" x2="28" y1="7" y2="7" className={styles[`${kind}Line`]} />
              {kind === 'asked' && (
                <defs>
                  <pattern id={`${id}-stripes-legend`} width="4" height="4" patternUnits="userSpaceOnUse">
                    <rect width="4" height="4" className={styles.stripeGround} />
                    <line x1="1" x2="1" y1="0" y2="4" className={styles.stripe} />
                  </pattern>
                </defs>
              )}
            </svg>
            {t(kind === 'sold' ? 'prices.legend.sold' : 'prices.legend.asked')}
          </li>
        ))}
      </ul>
      <p className={styles.legendNote}>{t('prices.legend.band')}</p>

      <div className={styles.plotArea}>
        <span className={styles.unit} aria-hidden="true">
          {t('prices.axis.price')}
        </span>
        <div className={styles.yAxis} aria-hidden="true">
          {scale.ticks.map((tick) => (
            <span key={tick} style={{ top: percent(yOf(scale, tick), PLOT_HEIGHT) }}>
              {format.money(tick)}
            </span>
          ))}
        </div>
        <div className={styles.plot}>
          <svg
            className={styles.svg}
            viewBox={`0 0 ${width} ${PLOT_HEIGHT}`}
            preserveAspectRatio="none"
            role="img"
            aria-labelledby={`${id}-title ${id}-desc`}
            data-testid="price-chart"
          >
            <title>{title}</title>
            <desc id={`${id}-desc`}>{summary}</desc>
            <defs>
              {/* Upright stripes stay upright however the plot is stretched. */}
              <pattern id={`${id}-stripes`} width="4" height="8" patternUnits="userSpaceOnUse">
                <rect width="4" height="8" className={styles.stripeGround} />
                <line x1="1" x2="1" y1="0" y2="8" className={styles.stripe} />
              </pattern>
            </defs>
            {scale.ticks.map((tick) => (
              <line key={tick} x1="0" x2={width} y1={yOf(scale, tick)} y2={yOf(scale, tick)} className={styles.gridLine} />
            ))}
            {runs.asked.map((run) => (
              <path key={`ab${run[0]!.index}`} d={bandPath(run, scale)} className={styles.askedBand} fill={`url(#${id}-stripes)`} />
            ))}
            {runs.sold.map((run) => (
              <path key={`sb${run[0]!.index}`} d={bandPath(run, scale)} className={styles.soldBand} />
            ))}
            {runs.asked.map((run) => (
              <path key={`al${run[0]!.index}`} d={medianPath(run, scale)} className={styles.askedLine} />
            ))}
            {runs.sold.map((run) => (
              <path key={`sl${run[0]!.index}`} d={medianPath(run, scale)} className={styles.soldLine} />
            ))}
            {weeks.map((week, index) => (
              // A full-height hit area per week, for its tooltip.
              <rect key={week.week} x={xOf(index) - SLOT / 2} y={0} width={SLOT} height={PLOT_HEIGHT} className={styles.hit} data-week={week.week}>
                <title>
                  {t('prices.chart.week', {
                    week: weekText(week, true),
                    sold: bandLine(t, format, 'sold', week.sold),
                    asked: bandLine(t, format, 'asked', week.asked),
                  })}
                </title>
              </rect>
            ))}
          </svg>
        </div>
      </div>
      <div className={styles.xAxis} aria-hidden="true">
        {labelled.map((index, n) => (
          <span
            key={index}
            className={n === 0 ? styles.first : n === labelled.length - 1 ? styles.last : styles.middle}
            style={{ left: percent(xOf(index), width) }}
          >
            {/* The ends carry the year: the first week is a year before the last. */}
            {weekText(weeks[index]!, n === 0 || n === labelled.length - 1)}
          </span>
        ))}
      </div>
      <p className={styles.axisTitle} aria-hidden="true">
        {t('prices.axis.week')}
      </p>
    </figure>
  );
}
