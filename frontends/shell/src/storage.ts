// The browser's storages, or null where the page may not use them (storage disabled, a sandboxed frame: reading
// the property throws). One place for the try/catch the shell's modules need; no imports, so the entry's early
// modules (session/earlyCheck.ts, session/keptSignIn.ts) can use it too.

export function localStorageOrNull(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function sessionStorageOrNull(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}
