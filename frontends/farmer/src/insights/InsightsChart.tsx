// The daily series as stacked bars (views, contact clicks, cart adds, requests per day), drawn in SVG.
// The picture has a title and a one-line description for screen readers, each bar a tooltip, and the
// same numbers are one click away as a table.
import { useId } from 'react';
import type { Insights } from '@tuber/contracts';
import { useFarmerT } from '../i18n/t.js';
import { CHART_SERIES, chartBars, dayLabel } from './insightsView.js';
import styles from './insights.module.css';

const BAR_SLOT = 10;
const BAR_WIDTH = 7;
const HEIGHT = 100;

export function InsightsChart({ daily, days }: { daily: Insights['daily']; days: number }) {
  const id = useId();
  const t = useFarmerT();
  const { bars, top, busiest } = chartBars(daily);
  const first = bars[0];
  const last = bars.at(-1);
  const middle = bars[Math.floor((bars.length - 1) / 2)];
  const title = t('insights.chart_title', { days });
  const summary = busiest
    ? t('insights.busiest', { day: dayLabel(busiest.day, 'long'), total: busiest.total, top })
    : t('insights.nothing');

  return (
    <figure className={styles.chart}>
      <figcaption className={styles.chartTitle} id={`${id}-title`}>
        {title}
      </figcaption>
      <ul className={styles.legend} aria-hidden="true">
        {CHART_SERIES.map((s) => (
          <li key={s.key}>
            <span className={`${styles.swatch} ${styles[s.key]}`} />
            {t(s.label)}
          </li>
        ))}
      </ul>
      <div className={styles.plot}>
        <span className={styles.axisTop} aria-hidden="true">
          {top}
        </span>
        <svg
          className={styles.svg}
          viewBox={`0 0 ${bars.length * BAR_SLOT} ${HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-labelledby={`${id}-title ${id}-desc`}
          data-testid="insights-chart"
        >
          <title>{title}</title>
          <desc id={`${id}-desc`}>{summary}</desc>
          <line x1="0" x2={bars.length * BAR_SLOT} y1={HEIGHT / 2} y2={HEIGHT / 2} className={styles.gridLine} />
          {bars.map((bar, i) => {
            let y = HEIGHT;
            return (
              <g key={bar.day} data-day={bar.day} data-total={bar.total}>
                <title>{bar.description}</title>
                {/* A full-height hit area, so a day with nothing still shows its tooltip. */}
                <rect x={i * BAR_SLOT} y={0} width={BAR_SLOT} height={HEIGHT} className={styles.hit} />
                {bar.segments.map((segment) => {
                  if (segment.value === 0) return null;
                  const height = (segment.value / top) * HEIGHT;
                  y -= height;
                  return (
                    <rect
                      key={segment.key}
                      x={i * BAR_SLOT + (BAR_SLOT - BAR_WIDTH) / 2}
                      y={y}
                      width={BAR_WIDTH}
                      height={height}
                      className={styles[segment.key]}
                    />
                  );
                })}
              </g>
            );
          })}
        </svg>
        <span className={styles.axisZero} aria-hidden="true">
          0
        </span>
      </div>
      <div className={styles.axisDays} aria-hidden="true">
        <span>{first ? dayLabel(first.day) : ''}</span>
        {bars.length > 2 && <span>{middle ? dayLabel(middle.day) : ''}</span>}
        <span>{last ? t('insights.today', { day: dayLabel(last.day) }) : ''}</span>
      </div>
      <details className={styles.chartTable}>
        <summary>{t('insights.show_numbers')}</summary>
        <div className={styles.tableScroll}>
          <table>
            <caption className={styles.visuallyHidden}>{title}</caption>
            <thead>
              <tr>
                <th scope="col">{t('insights.day')}</th>
                {CHART_SERIES.map((s) => (
                  <th scope="col" key={s.key}>
                    {t(s.label)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {bars.map((bar) => (
                <tr key={bar.day}>
                  <th scope="row">{dayLabel(bar.day, 'long')}</th>
                  {bar.segments.map((segment) => (
                    <td key={segment.key}>{segment.value}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
