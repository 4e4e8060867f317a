// A tiny external store of toast messages; React reads it with useSyncExternalStore (see ToastHost).

import type { Toast, ToastKind, ToastOptions, Toaster } from '@tuber/shell-contract';

export type { Toast, ToastAction, ToastKind, ToastOptions, Toaster } from '@tuber/shell-contract';

export interface ToastStore extends Toaster {
  show(kind: ToastKind, message: string, options?: ToastOptions): number;
  dismiss(id: number): void;
  subscribe(listener: () => void): () => void;
  getSnapshot(): readonly Toast[];
}

export interface ToastStoreOptions {
  /** How long a toast stays, in ms; 0 keeps it until dismissed. */
  durationMs?: number;
  /** Oldest toasts are dropped beyond this many (3: the host shows the newest on a phone, all 3 on a wide screen). */
  limit?: number;
  setTimer?: (run: () => void, ms: number) => unknown;
}

export function createToastStore(options: ToastStoreOptions = {}): ToastStore {
  const { durationMs = 4000, limit = 3, setTimer = (run, ms) => setTimeout(run, ms) } = options;
  let toasts: readonly Toast[] = [];
  let nextId = 1;
  const listeners = new Set<() => void>();
  const publish = (next: readonly Toast[]) => {
    toasts = next;
    listeners.forEach((listener) => listener());
  };

  const store: ToastStore = {
    show(kind, message, options) {
      const id = nextId++;
      publish([...toasts, { id, kind, message, ...(options?.action ? { action: options.action } : {}) }].slice(-limit));
      if (durationMs > 0) setTimer(() => store.dismiss(id), durationMs);
      return id;
    },
    dismiss(id) {
      if (toasts.some((toast) => toast.id === id)) publish(toasts.filter((toast) => toast.id !== id));
    },
    success: (message, options) => void store.show('success', message, options),
    error: (message, options) => void store.show('error', message, options),
    info: (message, options) => void store.show('info', message, options),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => toasts,
  };
  return store;
}
