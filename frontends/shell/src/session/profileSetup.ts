// Creating the buyer/farmer profile on the first successful login (spec §4) and from the
// "Create my profile now" button; the messages are the spec's (§8).
import { ApiError, type ApiClient } from '@tuber/shell-contract';
import { problemText, translate } from '@tuber/ui';
import { shellCatalogue } from '../i18n/catalogue.js';

export interface ProfileCreated {
  created: boolean;
  message: string;
}

export const ALREADY_SET_UP = 'Your profile is already set up!';

export function createMyProfile(api: ApiClient): Promise<ProfileCreated> {
  return api.post<ProfileCreated>('/profile/me');
}

/** "Failed to create profile: {message or Unknown error}" */
export function profileFailure(error: unknown): string {
  const message = error instanceof ApiError ? problemText(error) : error instanceof Error ? error.message : '';
  return translate(shellCatalogue, 'profile.failed', { message: message || translate(shellCatalogue, 'route-error.unknown') });
}
