// What a remote may show through the shell (ShellContract.toast). Types only: the queue behind it is the
// shell's (@tuber/ui's createToastStore).

export type ToastKind = 'success' | 'error' | 'info';

/** A link inside a toast ("View cart"): a path of this site, followed by the shell's router. */
export interface ToastAction {
  label: string;
  to: string;
}

export interface ToastOptions {
  action?: ToastAction;
}

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  action?: ToastAction;
}

export interface Toaster {
  success(message: string, options?: ToastOptions): void;
  error(message: string, options?: ToastOptions): void;
  info(message: string, options?: ToastOptions): void;
}
