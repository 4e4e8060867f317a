// The spec's wording (§8) for the farmer pages' toasts and notices, through the farmer catalogue
// (src/i18n/en.json holds the English exactly as the spec has it; the other languages follow the page's).
import { ApiError } from '@tuber/shell-contract';
import { isNetworkFailure, problemText } from '@tuber/ui';
import { tr } from '../i18n/t.js';

export const imageCountMessage = () => tr('photos.count_message');
export const uploadFailedMessage = (message: string) => tr('photos.upload_failed', { message });
export const uploadsFailedMessage = () => tr('photos.uploads_failed');

export const productPostedMessage = () => tr('add.posted');
export const noDataReturnedMessage = () => tr('add.no_data');
export const postFailedMessage = (message: string) => tr('add.failed', { message });

export const productDeletedMessage = () => tr('list.deleted');
export const deleteFailedMessage = (message: string) => tr('list.delete_failed', { message });

/** Product list and profile load failures. */
export const loadFailedMessage = (message: string) => tr('common.error', { message });

/** What an unknown thrown value says, for the messages above. */
export function messageOf(error: unknown): string {
  // A service's refusal by its code, the network's failure, in the reader's words (docs/adr/0064).
  if (error instanceof ApiError || error instanceof TypeError || isNetworkFailure(error)) return problemText(error);
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return tr('common.unknown_error');
}

export const productUpdatedMessage = () => tr('edit.updated');
export const updateFailedMessage = (message: string) => tr('edit.failed', { message });
export const nothingToUpdateMessage = () => tr('edit.nothing');
/** The edit page's offer after a 409 for a product someone changed since it was opened. */
export const changedElsewhereMessage = () => tr('edit.changed_elsewhere');

// The inbox of order requests (issue 12), in the style of the spec's toasts.
export const requestAcceptedMessage = () => tr('inbox.accepted');
export const requestDeclinedMessage = () => tr('inbox.declined');
export const requestFulfilledMessage = () => tr('inbox.fulfilled');
export const requestCancelledMessage = () => tr('inbox.cancelled');
export const acceptFailedMessage = (message: string) => tr('inbox.accept_failed', { message });
export const declineFailedMessage = (message: string) => tr('inbox.decline_failed', { message });
export const fulfilFailedMessage = (message: string) => tr('inbox.fulfil_failed', { message });
export const cancelFailedMessage = (message: string) => tr('inbox.cancel_failed', { message });

/** Posting, saving or acting while the browser has no network (issue 13): said plainly, never a silent failure. */
export const offlinePostMessage = () => tr('offline.post');
export const offlineSaveMessage = () => tr('offline.save');
export const offlineActionMessage = () => tr('offline.action');
