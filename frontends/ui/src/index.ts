/// <reference path="./env.d.ts" />
// @tuber/ui: shared components, formatting and the shell contract. Shared as a federation singleton.
import './styles/global.css';

export { formatNaira, koboToNaira, nairaToKobo } from './format/money.js';
export { firstWords, type WordCut } from './format/words.js';
export { shortAge, type AgeOptions } from './format/age.js';
export {
  PRODUCT_STATUSES,
  SELLING_UNITS,
  SELLING_UNIT_LABELS,
  STATUS_LABELS,
  TUBER_SIZES,
  TUBER_SIZE_LABELS,
  availability,
  calendarDayText,
  isProductStatus,
  isSellingUnit,
  isTuberSize,
  perKgText,
  pricePerKg,
  pricePerKgText,
  prepareNumberFormats,
  priceWithUnit,
  productPriceText,
  quantityText,
  statusOf,
  statusText,
  todayCalendarDay,
  unitLabel,
  unitOf,
  unitPlural,
  type Availability,
  type NounStyle,
  type ProductStatus,
  type SellingUnit,
  type StockFields,
  type TuberSize,
} from './format/product.js';

export {
  DEFAULT_LOCALE,
  LOCALES,
  LOCALE_STORAGE_KEY,
  defineCatalogue,
  formatFor,
  getLocale,
  isLocale,
  loadCatalogue,
  missingKeys,
  onLocaleChange,
  setLocale,
  subscribeI18n,
  translate,
  translateIn,
  useFormat,
  useLocale,
  useT,
  type Catalogue,
  type Locale,
  type LocaleFormat,
  type MessageValues,
  type Messages,
  type OtherLocale,
} from './i18n/index.js';

export { ApiError, createApiClient, type ApiClient, type ApiClientOptions, type ApiErrorBody } from './contract/api.js';
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
  type ShellSession,
  type ShellUser,
  type UserType,
} from './contract/shell.js';
export {
  createToastStore,
  type Toast,
  type ToastAction,
  type ToastKind,
  type ToastOptions,
  type Toaster,
  type ToastStore,
} from './toast/toastStore.js';
export {
  counterValue,
  onCounterRefresh,
  refreshCounter,
  setCounter,
  subscribeCounter,
  useCounter,
  type CounterName,
} from './contract/counters.js';
export { ToastHost, type ToastHostProps } from './toast/ToastHost.js';
export { StandaloneShell } from './StandaloneShell.js';

export { Button, buttonClass, type ButtonVariant } from './components/button.js';
export { Spinner } from './components/spinner.js';
export { PagePlaceholder } from './components/placeholder.js';
