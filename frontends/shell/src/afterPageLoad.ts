// Work the first screen does not need waits until it has been shown: the unread poll, keeping the language with
// the account, the web app manifest and the service worker (issue 13). Before that it would share the phone's one
// main thread and its slow network with the page's largest paint (the feed's first photo).

/**
 * How long after the window's load event. The load event alone comes too early: it waits for the page's own
 * scripts and styles, not for the remote page, its data and photos, which arrive after it.
 */
export const SETTLE_MS = 2_000;

/**
 * Runs `run` once, SETTLE_MS after the window's load event (counted from now if it has fired). Returns a cancel
 * for work that is no longer wanted (a component unmounted, the person signed out).
 */
export function afterPageLoad(run: () => void): () => void {
  let cancelled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const start = () => {
    if (!cancelled) timer = setTimeout(run, SETTLE_MS);
  };
  if (typeof document === 'undefined' || document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
  return () => {
    cancelled = true;
    if (typeof window !== 'undefined') window.removeEventListener('load', start);
    if (timer !== undefined) clearTimeout(timer);
  };
}
