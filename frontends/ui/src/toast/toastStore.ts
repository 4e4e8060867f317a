// A tiny external store of toast messages; React reads it with useSyncExternalStore (see ToastHost).

export type ToastKind = 'success' | 'error' | 'info';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
}

export interface Toaster {
  success(message: string): void;
  error(message: string): void;
  info(message: string): void;
}

export interface ToastStore extends Toaster {
  show(kind: ToastKind, message: string): number;
  dismiss(id: number): void;
  subscribe(listener: () => void): () => void;
  getSnapshot(): readonly Toast[];
}

export interface ToastStoreOptions {
  /** How long a toast stays, in ms; 0 keeps it until dismissed. */
  durationMs?: number;
  /** Oldest toasts are dropped beyond this many. */
  limit?: number;
  setTimer?: (run: () => void, ms: number) => unknown;
}

export function createToastStore(options: ToastStoreOptions = {}): ToastStore {
  const { durationMs = 4000, limit = 4, setTimer = (run, ms) => setTimeout(run, ms) } = options;
  let toasts: readonly Toast[] = [];
  let nextId = 1;
  const listeners = new Set<() => void>();
  const publish = (next: readonly Toast[]) => {
    toasts = next;
    listeners.forEach((listener) => listener());
  };

  const store: ToastStore = {
    show(kind, message) {
      const id = nextId++;
      publish([...toasts, { id, kind, message }].slice(-limit));
      if (durationMs > 0) setTimer(() => store.dismiss(id), durationMs);
      return id;
    },
    dismiss(id) {
      if (toasts.some((toast) => toast.id === id)) publish(toasts.filter((toast) => toast.id !== id));
    },
    success: (message) => void store.show('success', message),
    error: (message) => void store.show('error', message),
    info: (message) => void store.show('info', message),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => toasts,
  };
  return store;
}
