import { useSyncExternalStore } from 'react';
import type { ToastStore } from './toastStore.js';
import styles from './toasts.module.css';

/** Renders the toasts of a store; mounted once by the shell (or by <StandaloneShell>). */
export function ToastHost({ store }: { store: ToastStore }) {
  const toasts = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return (
    <div className={styles.host} aria-live="polite" aria-relevant="additions">
      {toasts.map((toast) => (
        <div key={toast.id} className={`${styles.toast} ${styles[toast.kind] ?? ''}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
          <span className={styles.message}>{toast.message}</span>
          <button type="button" className={styles.close} aria-label="Dismiss" onClick={() => store.dismiss(toast.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
