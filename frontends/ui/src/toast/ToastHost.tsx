import { useSyncExternalStore, type MouseEvent } from 'react';
import type { Toast, ToastStore } from './toastStore.js';
import styles from './toasts.module.css';

export interface ToastHostProps {
  store: ToastStore;
  /**
   * Follows a toast's action in the app (the shell passes its router's navigate: no page load). Without
   * it the action is an ordinary link.
   */
  navigate?: (to: string) => void;
}

type ClickLike = Pick<MouseEvent, 'button' | 'metaKey' | 'ctrlKey' | 'shiftKey' | 'altKey' | 'preventDefault'>;

/**
 * A click on a toast's action: a plain left click goes through `navigate` (the page is not loaded again);
 * a modified one (new tab, new window) or one without `navigate` is left to the browser. True when navigated.
 */
export function followToastAction(event: ClickLike, to: string, navigate?: (to: string) => void): boolean {
  const plain = event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
  if (!navigate || !plain) return false;
  event.preventDefault();
  navigate(to);
  return true;
}

/** Renders the toasts of a store; mounted once by the shell (or by <StandaloneShell>). */
export function ToastHost({ store, navigate }: ToastHostProps) {
  const toasts = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return (
    <div className={styles.host} aria-live="polite" aria-relevant="additions">
      {toasts.map((toast) => (
        <div key={toast.id} className={`${styles.toast} ${styles[toast.kind] ?? ''}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
          <span className={styles.message}>{toast.message}</span>
          {toast.action && <ToastActionLink toast={toast} store={store} navigate={navigate} />}
          <button type="button" className={styles.close} aria-label="Dismiss" onClick={() => store.dismiss(toast.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

function ToastActionLink({ toast, store, navigate }: { toast: Toast; store: ToastStore; navigate?: (to: string) => void }) {
  const action = toast.action!;
  return (
    <a
      href={action.to}
      className={styles.action}
      onClick={(event) => {
        followToastAction(event, action.to, navigate);
        store.dismiss(toast.id);
      }}
    >
      {action.label}
    </a>
  );
}
