// The language switch (issue 13): a native <select> listing each language in its own name, so it works
// with a keyboard, a screen reader and a phone's own picker. On a phone the header shows a globe and the
// language's short code over the (transparent) select; on wider screens the language's name.
import { useId } from 'react';
import { LOCALES, isLocale, useLocale } from '@tuber/shell-contract';
import { useT } from '@tuber/ui';
import { shellCatalogue } from '../i18n/catalogue.js';
import styles from './language.module.css';

const SHORT: Record<string, string> = { en: 'EN', pcm: 'PCM', yo: 'YO', ha: 'HA', ig: 'IG' };

export function LanguageSwitch() {
  const { locale, setLocale } = useLocale();
  const t = useT(shellCatalogue);
  const id = useId();
  const current = LOCALES.find((l) => l.code === locale) ?? LOCALES[0]!;
  return (
    <div className={styles.switch}>
      <label htmlFor={id} className={styles.visuallyHidden}>
        {t('header.language')}
      </label>
      <svg className={styles.globe} viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
        <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="1.8" />
        <path
          d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
        />
      </svg>
      <span className={styles.long} aria-hidden="true" lang={current.code}>
        {current.label}
      </span>
      <span className={styles.short} aria-hidden="true">
        {SHORT[current.code]}
      </span>
      <select
        id={id}
        className={styles.select}
        value={locale}
        data-testid="language-switch"
        onChange={(event) => {
          if (isLocale(event.target.value)) setLocale(event.target.value);
        }}
      >
        {LOCALES.map((l) => (
          <option key={l.code} value={l.code} lang={l.code}>
            {l.label}
          </option>
        ))}
      </select>
    </div>
  );
}
