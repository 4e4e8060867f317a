/// <reference path="./env.d.ts" />
// @tuber/ui: the front ends' library (components, formatting, product text, the i18n runtime, the API
// client and the toast queue). Not shared at run time: every front end bundles the copy it was built with
// (docs/adr/0054). What must be one per page (session, toasts, counters, locale, navigation) is the shell
// contract, @tuber/shell-contract. Design tokens and base styles: '@tuber/ui/global.css', loaded by the
// page's owner (the shell, or a remote's own dev page), never by a remote's pages.

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
  dayWords,
  defineCatalogue,
  ensureDateLocale,
  formatFor,
  LAGOS_TIME_ZONE,
  momentWords,
  loadCatalogue,
  missingKeys,
  regionalTag,
  translate,
  translateIn,
  useFormat,
  useT,
  type Catalogue,
  type LocaleFormat,
  type MessageValues,
  type Messages,
  type OtherLocale,
} from './i18n/index.js';

export { NO_ANSWER, OFFLINE_READ_MESSAGE, OFFLINE_SEND_MESSAGE, createApiClient, type ApiClientOptions } from './api.js';
export {
  fieldProblemTexts,
  isNetworkFailure,
  problemCatalogue,
  problemId,
  problemText,
  problemWords,
  useProblemText,
} from './problems.js';
export { useRetryWhenOnline } from './backOnline.js';
export { createToastStore, type ToastStore } from './toast/toastStore.js';
export { ToastHost, type ToastHostProps } from './toast/ToastHost.js';
export { StandaloneShell } from './StandaloneShell.js';

export { Button, buttonClass, type ButtonVariant } from './components/button.js';
export { PhoneCheck, VerifiedBadge, type PhoneCheckProps } from './components/phoneCheck.js';
export { PriceHint, PriceMarker, type PriceHintProps, type PriceMarkerProps } from './components/priceGuide.js';
export { ReportAction, type ReportActionProps } from './components/report.js';
export { Spinner } from './components/spinner.js';
export { PagePlaceholder } from './components/placeholder.js';
