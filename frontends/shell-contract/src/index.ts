// @tuber/shell-contract: what a remote may ask of the shell, and the only package of ours that the page
// holds once (a federation singleton with a semver range, see federation.ts). Everything else a front end
// uses is a library it bundles (@tuber/ui).
//
// Versioned like an API (docs/adr/0054): adding an export is a minor version, removing or changing one a
// major version. Version 1.0 is exactly the contract part of @tuber/ui 0.1 moved here, with the same names,
// so that a shell of that release (which shares @tuber/ui 0.1 as its singleton) still satisfies it:
// legacy-host.ts hands that module to today's remotes under such a shell. Every runtime export added
// here from now on must be absent from the 0.1 bridge's expectations, i.e. optional for a remote.
export { ApiError, type ApiClient, type ApiErrorBody, type ApiFieldProblem, type ApiProblem } from './api.js';
export {
  ShellProvider,
  useApi,
  useAuth,
  useSession,
  useShell,
  useToast,
  type PagePrefetchContext,
  type SessionEvent,
  type ShellAuth,
  type ShellContract,
  type ShellPath,
  type ShellSession,
  type ShellUser,
  type UserType,
} from './shell.js';
export type { Toast, ToastAction, ToastKind, ToastOptions, Toaster } from './toast.js';
export {
  counterValue,
  onCounterRefresh,
  refreshCounter,
  setCounter,
  subscribeCounter,
  useCounter,
  type CounterName,
} from './counters.js';
export { DEFAULT_LOCALE, LOCALES, isLocale, type Locale } from './locales.js';
export { LOCALE_STORAGE_KEY, getLocale, onLocaleChange, setLocale, subscribeI18n, useLocale } from './locale.js';
