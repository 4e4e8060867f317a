import { useLayoutEffect, useRef, useSyncExternalStore, type MouseEvent, type RefObject } from 'react';
import { useT } from '../i18n/index.js';
import { problemCatalogue } from '../problems.js';
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

/**
 * On a phone the toast shows under the header, not over it (issue 25: it hid the Menu button and the cart's
 * count). The room it takes is given to the page as --tm-toast-space (global.css pads <main> by it), so at
 * the top of a page the toast pushes the content down instead of covering it.
 */
function useToastSpace(host: RefObject<HTMLDivElement | null>): void {
  useLayoutEffect(() => {
    const element = host.current;
    if (!element || typeof ResizeObserver === 'undefined' || typeof window.matchMedia !== 'function') return;
    const phone = window.matchMedia('(max-width: 639px)');
    const root = document.documentElement;
    const measure = () => {
      const height = phone.matches ? element.getBoundingClientRect().height : 0;
      root.style.setProperty('--tm-toast-space', `${height > 0 ? Math.ceil(height) + 8 : 0}px`);
    };
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    phone.addEventListener('change', measure);
    measure();
    return () => {
      observer.disconnect();
      phone.removeEventListener('change', measure);
      root.style.removeProperty('--tm-toast-space');
    };
  }, [host]);
}

/** Renders the toasts of a store; mounted once by the shell (or by <StandaloneShell>). */
export function ToastHost({ store, navigate }: ToastHostProps) {
  const toasts = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const t = useT(problemCatalogue);
  const host = useRef<HTMLDivElement>(null);
  useToastSpace(host);
  return (
    <div ref={host} className={styles.host} aria-live="polite" aria-relevant="additions">
      {toasts.map((toast) => (
        <div key={toast.id} className={`${styles.toast} ${styles[toast.kind] ?? ''}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
          <span className={styles.message}>{toast.message}</span>
          {toast.action && <ToastActionLink toast={toast} store={store} navigate={navigate} />}
          <button type="button" className={styles.close} aria-label={t('toast.dismiss')} onClick={() => store.dismiss(toast.id)}>
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
