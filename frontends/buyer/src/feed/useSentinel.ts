// Calls `onVisible` when an element (the sentinel under the last card) comes near the viewport.
import { useEffect, useRef } from 'react';

export function useSentinel<T extends Element>(onVisible: () => void, enabled: boolean, rootMargin = '600px 0px') {
  const ref = useRef<T | null>(null);
  const callback = useRef(onVisible);
  callback.current = onVisible;

  useEffect(() => {
    const target = ref.current;
    if (!enabled || !target || typeof IntersectionObserver === 'undefined') return;
    // Observing fires once at once, so a page that does not yet fill the screen keeps loading.
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) callback.current();
      },
      { rootMargin },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [enabled, rootMargin]);

  return ref;
}
