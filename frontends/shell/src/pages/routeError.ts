import { translate } from '@tuber/ui';
import { shellCatalogue } from '../i18n/catalogue.js';

/** What the route error screen shows of what a page threw: the error's message, a thrown string, or a generic line. */
export function describeRouteError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' && error ? error : translate(shellCatalogue, 'route-error.unknown');
}
