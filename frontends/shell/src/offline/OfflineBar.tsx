// "You are offline — showing what you saw last" (issue 13): in the page's flow above the header, so it pushes
// the page down rather than covering any of it, and a screen reader hears it once when it appears.
import { useSyncExternalStore } from 'react';
import { OFFLINE_BAR_TEXT } from './copy.js';
import { isOffline, subscribeNetwork } from './networkStatus.js';
import styles from './offline.module.css';

export function useOffline(): boolean {
  return useSyncExternalStore(subscribeNetwork, isOffline, () => false);
}

export function OfflineBar() {
  const offline = useOffline();
  return (
    <div role="status" aria-live="polite">
      {offline ? (
        <p className={styles.bar} data-testid="offline-bar">
          <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="M2 8.8a15 15 0 0 1 20 0M5.5 12.4a10 10 0 0 1 13 0M9 16a5 5 0 0 1 6 0M12 19.5h.01M3 3l18 18" />
          </svg>
          <span>{OFFLINE_BAR_TEXT}</span>
        </p>
      ) : null}
    </div>
  );
}
