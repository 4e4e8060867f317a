// The feed's search box, filters and sort (issue 11). What is applied lives in the address (the page passes
// it in and navigates on `apply`); the text fields keep a draft until the buyer presses Enter, Search or Apply,
// while the chips, the toggle and the sort apply at once. On a phone the filters fold into a panel.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { buttonClass } from '@tuber/ui';
import { cleanPrice, activeFilterCount, FEED_SORTS, isNarrowed, NO_FILTERS, TEXT_MAX, TUBER_TYPES, type FeedFilters } from './feedQuery.js';
import type { FeedSort, TuberType } from '../catalog/types.js';
import { useBuyerT } from '../i18n/t.js';
import { keyOf, tuberName } from '../i18n/words.js';
import styles from './filters.module.css';

interface Draft {
  q: string;
  location: string;
  min: string;
  max: string;
}

const draftOf = (filters: FeedFilters): Draft => ({
  q: filters.q,
  location: filters.location,
  min: filters.minPrice === null ? '' : String(filters.minPrice),
  max: filters.maxPrice === null ? '' : String(filters.maxPrice),
});

export function FeedControls({ filters: applied, apply: navigateTo }: { filters: FeedFilters; apply: (next: FeedFilters) => void }) {
  const id = useId();
  const t = useBuyerT();
  // What the controls show: the applied search, or the one just chosen while the navigation to it runs
  // (the router updates the address asynchronously; a ticked chip must not untick meanwhile).
  const [filters, setFilters] = useState(applied);
  const [draft, setDraft] = useState(() => draftOf(applied));
  const [open, setOpen] = useState(false);
  // Back/Forward (or a shared link) changes what is applied: the fields follow.
  useEffect(() => {
    setFilters(applied);
    setDraft(draftOf(applied));
  }, [applied]);
  const apply = (next: FeedFilters) => {
    setFilters(next);
    navigateTo(next);
  };

  const withDraft = (change: Partial<FeedFilters> = {}): FeedFilters => ({
    ...filters,
    q: draft.q,
    location: draft.location,
    minPrice: cleanPrice(draft.min),
    maxPrice: cleanPrice(draft.max),
    ...change,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply(withDraft());
    setOpen(false);
  };
  const toggleTuber = (tuber: TuberType, on: boolean) =>
    apply(withDraft({ tubers: on ? [...filters.tubers, tuber] : filters.tubers.filter((t) => t !== tuber) }));
  const count = activeFilterCount(filters);
  const field = (name: keyof Draft) => ({
    value: draft[name],
    onChange: (event: { target: { value: string } }) => setDraft((previous) => ({ ...previous, [name]: event.target.value })),
  });

  return (
    <form role="search" aria-label={t('filters.label')} className={styles.controls} onSubmit={submit} data-testid="feed-controls">
      <div className={styles.searchRow}>
        <label htmlFor={`${id}-q`} className={styles.hidden}>
          {t('filters.label')}
        </label>
        <input
          id={`${id}-q`}
          className={styles.searchInput}
          type="search"
          name="q"
          placeholder={t('filters.placeholder')}
          maxLength={TEXT_MAX}
          enterKeyHint="search"
          autoComplete="off"
          {...field('q')}
        />
        <button type="submit" className={buttonClass('primary')}>
          {t('filters.search')}
        </button>
      </div>

      <div className={styles.toolbar}>
        <button
          type="button"
          className={buttonClass('secondary', styles.filtersToggle)}
          aria-expanded={open}
          aria-controls={`${id}-filters`}
          onClick={() => setOpen((was) => !was)}
        >
          {t('filters.toggle', { count })}
        </button>
        <label className={styles.sort}>
          <span>{t('filters.sort')}</span>
          <select value={filters.sort} onChange={(event) => apply(withDraft({ sort: event.target.value as FeedSort }))}>
            {FEED_SORTS.map((sort) => (
              <option key={sort} value={sort}>
                {t(`filters.sort.${keyOf(sort)}`)}
              </option>
            ))}
          </select>
        </label>
      </div>

      <div id={`${id}-filters`} className={open ? `${styles.panel} ${styles.panelOpen}` : styles.panel} data-testid="feed-filters">
        <fieldset className={styles.group}>
          <legend>{t('filters.tuber-type')}</legend>
          <div className={styles.chips}>
            {TUBER_TYPES.map((tuber) => (
              <label key={tuber} className={styles.chip}>
                <input
                  type="checkbox"
                  checked={filters.tubers.includes(tuber)}
                  onChange={(event) => toggleTuber(tuber, event.target.checked)}
                />
                <span>{tuberName(tuber, t)}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset className={styles.group}>
          <legend>{t('filters.price')}</legend>
          <div className={styles.priceRow}>
            <label>
              <span>{t('filters.min')}</span>
              <input type="number" name="min_price" min={0} step={0.01} inputMode="decimal" placeholder="0" {...field('min')} />
            </label>
            <label>
              <span>{t('filters.max')}</span>
              <input
                type="number"
                name="max_price"
                min={0}
                step={0.01}
                inputMode="decimal"
                placeholder={t('filters.any')}
                {...field('max')}
              />
            </label>
          </div>
        </fieldset>
        <label className={styles.group}>
          <span className={styles.groupLabel}>{t('filters.location')}</span>
          <input type="text" name="location" placeholder={t('filters.location-placeholder')} maxLength={TEXT_MAX} {...field('location')} />
        </label>
        <label className={styles.toggle}>
          <input
            type="checkbox"
            role="switch"
            checked={filters.available}
            onChange={(event) => apply(withDraft({ available: event.target.checked }))}
          />
          <span>{t('filters.available')}</span>
        </label>
        <div className={styles.panelActions}>
          <button type="submit" className={buttonClass('primary')}>
            {t('filters.apply')}
          </button>
          {isNarrowed(filters) ? (
            <button type="button" className={buttonClass('secondary')} onClick={() => apply({ ...NO_FILTERS, sort: filters.sort })}>
              {t('feed.clear-filters')}
            </button>
          ) : null}
        </div>
      </div>
    </form>
  );
}
