import { ApiError } from '@tuber/shell-contract';
import { problemText, translate } from '@tuber/ui';
import { shellCatalogue } from '../i18n/catalogue.js';

/** What the route error screen shows of what a page threw: the error's message, a thrown string, or a generic line. */
export function describeRouteError(error: unknown): string {
  // A service's refusal or the network's failure in the reader's words (docs/adr/0064).
  if (error instanceof ApiError || error instanceof TypeError) return problemText(error);
  if (error instanceof Error) return error.message;
  return typeof error === 'string' && error ? error : translate(shellCatalogue, 'route-error.unknown');
}
