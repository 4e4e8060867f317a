// The chosen language: one module-level store for the page (this package is the one federation singleton
// of ours, so the shell and every remote read the same one). Read in React with useSyncExternalStore.
// Catalogues and their loading are not here: each front end's copy of @tuber/ui keeps its own.
import { useSyncExternalStore } from 'react';
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from './locales.js';

export const LOCALE_STORAGE_KEY = 'tuber.locale';

const listeners = new Set<() => void>();
const localeListeners = new Set<(locale: Locale) => void>();

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined; // storage blocked (privacy mode): the choice then lasts until the page closes
  }
}

function stored(): Locale | undefined {
  try {
    const value = storage()?.getItem(LOCALE_STORAGE_KEY);
    return isLocale(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A phone set to Yoruba, Hausa, Igbo or Pidgin starts in that language until a choice is made. */
function fromBrowser(): Locale | undefined {
  const languages = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  for (const tag of languages) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (base === 'en') return undefined;
    const found = LOCALES.find((l) => l.code === base);
    if (found) return found.code;
  }
  return undefined;
}

function applyToDocument(locale: Locale): void {
  if (typeof document !== 'undefined' && document.documentElement) document.documentElement.lang = locale;
}

let current: Locale = stored() ?? fromBrowser() ?? DEFAULT_LOCALE;
applyToDocument(current);

function changed(): void {
  listeners.forEach((listener) => listener());
}

function switchTo(next: Locale): void {
  if (next === current) return;
  current = next;
  applyToDocument(next);
  localeListeners.forEach((listener) => listener(next));
  changed();
}

// Another tab switched language: follow it.
if (typeof window !== 'undefined' && typeof window.addEventListener === 'function') {
  window.addEventListener('storage', (event) => {
    if (event.key === LOCALE_STORAGE_KEY && isLocale(event.newValue)) switchTo(event.newValue);
  });
}

export function getLocale(): Locale {
  return current;
}

/** Switches the language for the whole page, remembers it and sets `<html lang>`. */
export function setLocale(next: Locale): void {
  if (!isLocale(next)) throw new RangeError(`not a supported language: ${String(next)}`);
  try {
    storage()?.setItem(LOCALE_STORAGE_KEY, next);
  } catch {
    // quota or privacy mode: the switch still applies to this page
  }
  switchTo(next);
}

/**
 * Called on every switch of language. (The name is the one @tuber/ui 0.1 gave it, when that package also
 * told catalogue arrivals through it; a shell of that release still does, which costs a listener one
 * extra render.)
 */
export function subscribeI18n(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** Called with the new language after each switch (e.g. to start loading catalogues, or tell Keycloak). */
export function onLocaleChange(listener: (locale: Locale) => void): () => void {
  localeListeners.add(listener);
  return () => void localeListeners.delete(listener);
}

export function useLocale(): { locale: Locale; setLocale(next: Locale): void } {
  const locale = useSyncExternalStore(subscribeI18n, getLocale, getLocale);
  return { locale, setLocale };
}
