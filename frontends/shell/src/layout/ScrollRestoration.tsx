// What the data router's <ScrollRestoration /> did for the shell (docs/adr/0048): a new page (a link, a
// redirect) starts at the top, or at its #hash; back/forward returns to where that history entry was left,
// also after a reload (the positions are kept in sessionStorage for the tab's life).
//
// The position is followed while a page is on screen (scroll events) instead of read when leaving: by the
// time this component hears of a navigation the next page is already in the DOM, and a shorter page has
// clamped window.scrollY. A page that is not tall enough yet when it shows (a remote page's spinner) gets its
// place back once it has grown (restoreWhenTallEnough); the buyer feed also restores its own, from its kept pages.
import { useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from '@tuber/shell-contract/router';

const STORAGE_KEY = 'tuber.scroll-positions';
/** Enough for a long session of back and forth; the entries not seen for longest go first. */
const KEPT = 100;

type Positions = Map<string, number>;

function readPositions(): Positions {
  try {
    const kept: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    if (Array.isArray(kept))
      return new Map(
        kept.filter(
          (entry): entry is [string, number] => Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'number',
        ),
      );
  } catch {
    // Storage blocked (private mode, quota) or an old value: start afresh.
  }
  return new Map();
}

function writePositions(positions: Positions) {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...positions].slice(-KEPT)));
  } catch {
    // Without storage only a reload forgets the positions; back/forward in this page still works.
  }
}

/**
 * The history entry's key. The entry the tab first loaded has no key of its own ("default") and neither has
 * a page loaded afresh later in the same tab (back from Keycloak): the address tells those apart.
 */
function entryKey(location: { key: string; pathname: string; search: string }) {
  return location.key === 'default' ? `default:${location.pathname}${location.search}` : location.key;
}

function scrollToHash(hash: string): boolean {
  if (!hash) return false;
  let id = hash.slice(1);
  try {
    id = decodeURIComponent(id);
  } catch {
    // A malformed escape: look the id up as written.
  }
  const target = document.getElementById(id);
  target?.scrollIntoView();
  return target !== null;
}

/** How long back/forward waits for a page to grow tall enough to return to its place. */
const RESTORE_WAIT_MS = 5_000;

/**
 * A remote page shows a spinner first (its code is fetched when the route changes back to it), so the place
 * to return to may be out of reach when the page changes. Return there once the page has grown enough (the
 * data router gave up at once). Only a position the page can reach: no half-way scrolls that would start an
 * infinite list loading. Stops at the first sign of the person scrolling themselves, and at the next page.
 */
function restoreWhenTallEnough(saved: number, done: () => void): () => void {
  const reachable = () => document.documentElement.scrollHeight - window.innerHeight >= saved;
  const observer = new ResizeObserver(() => {
    if (!reachable()) return;
    window.scrollTo(0, saved);
    stop();
  });
  const timer = window.setTimeout(() => stop(), RESTORE_WAIT_MS);
  const userEvents = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
    for (const type of userEvents) window.removeEventListener(type, stop, true);
    done();
  }
  observer.observe(document.body);
  for (const type of userEvents) window.addEventListener(type, stop, { capture: true, passive: true });
  return stop;
}

export function ScrollRestoration() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const positions = useRef<Positions | null>(null);
  const current = useRef('');
  /** A return to a place is waiting for the page to grow: the scroll events meanwhile are the page being too short. */
  const waiting = useRef(false);

  // The browser's own restoration would fight this one (it restores before the page has rendered).
  useLayoutEffect(() => {
    positions.current ??= readPositions();
    const follow = () => {
      if (current.current && !waiting.current) positions.current?.set(current.current, window.scrollY);
    };
    const leave = () => {
      follow();
      if (positions.current) writePositions(positions.current);
      // Another document (Keycloak's page, an external link) keeps the browser's restoration, as the data router did.
      window.history.scrollRestoration = 'auto';
    };
    const back = () => {
      window.history.scrollRestoration = 'manual';
    };
    window.history.scrollRestoration = 'manual';
    window.addEventListener('scroll', follow, { passive: true });
    window.addEventListener('pagehide', leave);
    window.addEventListener('pageshow', back);
    return () => {
      window.removeEventListener('scroll', follow);
      window.removeEventListener('pagehide', leave);
      window.removeEventListener('pageshow', back);
      window.history.scrollRestoration = 'auto';
    };
  }, []);

  // Runs in the commit that shows the new page, before the browser paints it and before any scroll event it
  // causes (those now count for the new entry).
  const key = entryKey(location);
  const { hash } = location;
  useLayoutEffect(() => {
    positions.current ??= readPositions();
    current.current = key;
    const kept = positions.current.get(key);
    // The entry seen last goes last: the ones left out of storage are those not seen for longest.
    positions.current.delete(key);
    if (kept !== undefined) positions.current.set(key, kept);
    const saved = navigationType === 'POP' ? kept : undefined;
    if (saved !== undefined) {
      window.scrollTo(0, saved);
      if (saved <= window.scrollY + 1) return;
      waiting.current = true;
      return restoreWhenTallEnough(saved, () => {
        waiting.current = false;
      });
    }
    if (scrollToHash(hash)) return;
    window.scrollTo(0, 0);
  }, [key, hash, navigationType]);

  return null;
}
