import { translate } from '@tuber/ui';
import { isRouteErrorResponse } from '@tuber/ui/router';
import { shellCatalogue } from '../i18n/catalogue.js';

/** What the router's error screen shows: the status (e.g. "404 Not Found") or the error's message. */
export function describeRouteError(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  return typeof error === 'string' && error ? error : translate(shellCatalogue, 'route-error.unknown');
}
