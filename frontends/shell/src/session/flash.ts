// A toast that survives a full page load (the Keycloak logout round trip, "Create my profile now"'s reload).
import type { ToastKind, Toaster } from '@tuber/shell-contract';

const KEY = 'tuber:flash';

export function keepForNextPage(kind: ToastKind, message: string, storage: Storage = sessionStorage): void {
  try {
    storage.setItem(KEY, JSON.stringify({ kind, message }));
  } catch {
    // storage unavailable (private mode): the toast is lost, nothing else
  }
}

export function showKeptToast(toast: Toaster, storage: Storage = sessionStorage): void {
  let raw: string | null = null;
  try {
    raw = storage.getItem(KEY);
    storage.removeItem(KEY);
  } catch {
    return;
  }
  if (!raw) return;
  try {
    const { kind, message } = JSON.parse(raw) as { kind?: ToastKind; message?: string };
    if (typeof message === 'string' && (kind === 'success' || kind === 'error' || kind === 'info')) toast[kind](message);
  } catch {
    // ignore a damaged entry
  }
}

export function forgetKeptToast(storage: Storage = sessionStorage): void {
  try {
    storage.removeItem(KEY);
  } catch {
    // nothing kept
  }
}
