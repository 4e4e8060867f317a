// /prices/<tuber> (issue 27): the public price guide of one tuber, for guests and signed-in people alike. What a
// kilo sold for (accepted requests) and was asked for (live listings), week by week over the last 52 weeks, the
// city's or a place's, with this week's figures and counts, the seasonal hint when the figures show one, and the
// same figures as a table.
//
// The chart is a small hand-written SVG (PriceChart.tsx), not a chart library: it is two lines and two bands on
// one axis, which takes some 150 lines, while a chart library would add 50–200 KB of script to a public page that
// guests open on cheap phones over slow networks (ADR 0045's budgets), and would bring its own colours, fonts,
// tooltips and accessibility to fit to ours. Hand-drawn, it uses the design tokens and stays readable at 360 px.
import { useId, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from '@tuber/shell-contract/router';
import type { PriceHistory } from '@tuber/contracts';
import { Button, Spinner, useFormat, useT } from '@tuber/ui';
import { landingCatalogue } from '../i18n/catalogue.js';
import { useMonthName } from './months.js';
import { PriceChart } from './PriceChart.js';
import { PriceTable } from './PriceTable.js';
import { countText, notEnoughText, perKgRange, weekText } from './priceText.js';
import {
  BAND_KINDS,
  TUBER_SLUGS,
  hasFigures,
  hasMergedWeeks,
  isTuberSlug,
  locationFromSearch,
  pricePagePath,
  priceScale,
  searchForLocation,
  thisWeek,
  type TuberSlug,
} from './priceView.js';
import { usePriceHistory } from './usePriceHistory.js';
import styles from './prices.module.css';

export function PricePage() {
  const { tuber } = useParams();
  // A new tuber is a new page: its own fetch, its own chart or table choice.
  return isTuberSlug(tuber) ? <TuberPrices key={tuber} slug={tuber} /> : <UnknownTuber name={tuber ?? ''} />;
}

function TuberPrices({ slug }: { slug: TuberSlug }) {
  const t = useT(landingCatalogue);
  const { search } = useLocation();
  const navigate = useNavigate();
  const place = locationFromSearch(search);
  const { state, retry } = usePriceHistory(slug, place);
  const history = state.status === 'loaded' ? state.history : state.status === 'loading' ? state.previous : undefined;
  const tuber = t(`tuber.${slug}`);

  const choosePlace = (next: string) => navigate({ search: searchForLocation(next) });

  return (
    <div className={styles.page}>
      <section className={styles.inner} aria-busy={state.status === 'loading'} aria-labelledby="price-title">
        <p className={styles.eyebrow}>{t('prices.eyebrow')}</p>
        <h1 id="price-title" className={`${styles.title} ${styles.tuberName}`}>
          {tuber}
        </h1>
        <p className={styles.lead}>{t('prices.lead', { tuber })}</p>

        {history && history.locations.length > 0 && <PlacePicker history={history} place={place} onChoose={choosePlace} />}

        {state.status === 'failed' && (
          <div className={styles.error} role="alert">
            <p>{t('prices.failed', { message: state.message })}</p>
            <Button variant="secondary" onClick={retry}>
              {t('prices.retry')}
            </Button>
          </div>
        )}
        {state.status === 'loading' && !history && <Spinner label={t('prices.loading')} />}

        {history && (
          <div className={state.status === 'loading' ? styles.stale : undefined}>
            {place && history.scope === 'city' && <p className={styles.note}>{t('prices.location.fallback', { location: place })}</p>}
            {hasFigures(history.weeks) ? <Figures history={history} tuber={tuber} /> : <NoFiguresYet tuber={tuber} />}
          </div>
        )}

        <OtherTubers current={slug} />
      </section>
    </div>
  );
}

function PlacePicker({ history, place, onChoose }: { history: PriceHistory; place: string; onChoose: (place: string) => void }) {
  const t = useT(landingCatalogue);
  const id = useId();
  const chosen = history.locations.includes(place) ? place : '';
  return (
    <div className={styles.place}>
      <label htmlFor={id}>{t('prices.location.label')}</label>
      <select id={id} value={chosen} onChange={(event) => onChoose(event.target.value)}>
        <option value="">{t('prices.location.city')}</option>
        {history.locations.map((location) => (
          <option key={location} value={location}>
            {location}
          </option>
        ))}
      </select>
    </div>
  );
}

function Figures({ history, tuber }: { history: PriceHistory; tuber: string }) {
  const t = useT(landingCatalogue);
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const scale = priceScale(history.weeks)!;
  const title = t('prices.chart.title', { tuber });
  const viewId = useId();
  return (
    <>
      <SeasonalHint history={history} />
      <ThisWeek history={history} />
      <div className={styles.viewHead}>
        <h2 className={styles.subtitle}>{t('prices.year.title')}</h2>
        <Button variant="secondary" aria-controls={viewId} onClick={() => setView(view === 'chart' ? 'table' : 'chart')}>
          {t(view === 'chart' ? 'prices.show-table' : 'prices.show-chart')}
        </Button>
      </div>
      <div id={viewId}>
        {view === 'chart' ? (
          <PriceChart weeks={history.weeks} scale={scale} title={title} />
        ) : (
          <PriceTable weeks={history.weeks} caption={t('prices.table.caption', { tuber })} />
        )}
      </div>
      {hasMergedWeeks(history.weeks) && <p className={styles.footnote}>{t(view === 'table' ? 'prices.merged-note' : 'prices.merged-note-chart')}</p>}
      <p className={styles.footnote}>{t('prices.privacy')}</p>
    </>
  );
}

function SeasonalHint({ history }: { history: PriceHistory }) {
  const t = useT(landingCatalogue);
  const month = useMonthName(history.seasonal?.month ?? null);
  if (!history.seasonal || !month) return null;
  const falls = history.seasonal.direction === 'fall';
  return (
    <p className={styles.hint} data-testid="seasonal-hint">
      <svg className={styles.hintIcon} viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
        <path d={falls ? 'M4 6l7 7 4-4 5 5M20 9v5h-5' : 'M4 18l7-7 4 4 5-5M20 15v-5h-5'} />
      </svg>
      {t('prices.seasonal', { direction: history.seasonal.direction, month })}
    </p>
  );
}

function ThisWeek({ history }: { history: PriceHistory }) {
  const t = useT(landingCatalogue);
  const format = useFormat();
  const week = thisWeek(history);
  if (!week) return null;
  return (
    <section className={styles.thisWeek} aria-labelledby="this-week-title">
      <h2 id="this-week-title" className={styles.subtitle}>
        {t('prices.this-week.title', { date: weekText(week) })}
      </h2>
      <ul className={styles.weekCards}>
        {BAND_KINDS.map((kind) => {
          const band = week[kind];
          return (
            <li key={kind} className={styles.weekCard} data-kind={kind}>
              <span className={styles.weekLabel}>{t(kind === 'sold' ? 'prices.legend.sold' : 'prices.legend.asked')}</span>
              {band ? (
                <>
                  <span className={styles.weekRange}>{perKgRange(t, format, band)}</span>
                  <span className={styles.weekDetail}>
                    {t('prices.median', { price: format.money(band.p50) })} · {countText(t, kind, band.count)}
                    {band.merged && <> · {t('prices.merged-mark')}</>}
                  </span>
                </>
              ) : (
                <span className={styles.weekNone}>{notEnoughText(t, kind)}</span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function NoFiguresYet({ tuber }: { tuber: string }) {
  const t = useT(landingCatalogue);
  return (
    <div className={styles.empty} data-testid="prices-empty">
      <svg className={styles.emptyIcon} viewBox="0 0 48 48" width="48" height="48" aria-hidden="true">
        <path d="M6 40h36M10 34V22M18 34V14M26 34v-8M34 34V18" />
      </svg>
      <h2 className={styles.subtitle}>{t('prices.empty.title', { tuber })}</h2>
      <p>{t('prices.empty.text')}</p>
    </div>
  );
}

function OtherTubers({ current }: { current?: TuberSlug }) {
  const t = useT(landingCatalogue);
  return (
    <nav className={styles.others} aria-labelledby="other-tubers-title">
      <h2 id="other-tubers-title" className={styles.othersTitle}>
        {t(current ? 'prices.others' : 'prices.all')}
      </h2>
      <ul className={styles.tuberLinks}>
        {TUBER_SLUGS.filter((slug) => slug !== current).map((slug) => (
          <li key={slug}>
            <Link to={pricePagePath(slug)}>{t(`tuber.${slug}`)}</Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function UnknownTuber({ name }: { name: string }) {
  const t = useT(landingCatalogue);
  return (
    <div className={styles.page}>
      <section className={styles.inner}>
        <p className={styles.eyebrow}>{t('prices.eyebrow')}</p>
        <h1 className={styles.title}>{t('prices.unknown', { name })}</h1>
        <OtherTubers />
      </section>
    </div>
  );
}
