// The feed's first photo gets the line to itself (issue 13: a cheap phone on a slow, costly network).
//
// A phone shows one card above the fold, but the browser fetches the next cards' photos at the same moment
// (the rest of a wide screen's first row is eager, and lazy photos within ~1,250 px start at once too). On a
// slow link they split its bandwidth, so the one photo the buyer is looking at arrives several times later.
// Here the other photos wait until the first is on the screen (or has failed), then load as before. "On the
// screen" is the Element Timing entry of the first photo where the browser has that API (it is reported once
// the frame showing the photo is presented), else the frame after its load event. A photo that never shows
// does not hold the rest back for long.
import { useCallback, useEffect, useState } from 'react';

/** How long the other photos wait at most for the first one. */
export const FIRST_PHOTO_HEAD_START_MS = 3000;

/** The first photo's `elementtiming` name. */
export const FIRST_PHOTO_TIMING = 'feed-first-photo';

export interface FirstPhotoFirst {
  /** True while the photos after the first should not be asked for yet. */
  held: boolean;
  /** The first photo's load handler. */
  loaded: () => void;
  /** The first photo's error handler. */
  failed: () => void;
}

const elementTiming = (): boolean =>
  typeof PerformanceObserver !== 'undefined' && (PerformanceObserver.supportedEntryTypes ?? []).includes('element');

/**
 * @param firstPhoto whether the first card has a photo to wait for (null: no products yet; false: the first card
 *   has none, so nothing waits).
 * @param wait false when nothing should wait (Back to a feed whose photos are already in the cache).
 */
export function useFirstPhotoFirst(firstPhoto: boolean | null, wait: boolean): FirstPhotoFirst {
  const [released, setReleased] = useState(!wait);
  const release = useCallback(() => setReleased(true), []);

  useEffect(() => {
    if (released || !firstPhoto) return;
    const timer = setTimeout(release, FIRST_PHOTO_HEAD_START_MS);
    let observer: PerformanceObserver | undefined;
    if (elementTiming()) {
      observer = new PerformanceObserver((list) => {
        if (list.getEntries().some((entry) => (entry as PerformanceEntry & { identifier?: string }).identifier === FIRST_PHOTO_TIMING))
          release();
      });
      observer.observe({ type: 'element', buffered: true });
    }
    return () => {
      clearTimeout(timer);
      observer?.disconnect();
    };
  }, [released, firstPhoto, release]);

  // Without Element Timing: after the frame that follows the load (rAF, then a task after that frame's paint).
  const loaded = useCallback(() => {
    if (!elementTiming()) requestAnimationFrame(() => setTimeout(release, 0));
  }, [release]);

  return { held: !released && firstPhoto !== false, loaded, failed: release };
}
