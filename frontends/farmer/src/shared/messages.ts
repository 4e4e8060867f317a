// The spec's wording (§8) for the farmer pages, in one place so pages and tests agree on every character.

export const IMAGE_COUNT_MESSAGE = 'Please select between 2 to 5 images.';
export const uploadFailedMessage = (message: string) => `Failed to upload image: ${message}`;
export const UPLOADS_FAILED_MESSAGE = 'Failed to upload images';

export const PRODUCT_POSTED_MESSAGE = 'Product posted successfully!';
export const NO_DATA_RETURNED_MESSAGE = 'Failed to post product: No data returned';
export const postFailedMessage = (message: string) => `Error posting product: ${message}`;

export const PRODUCT_DELETED_MESSAGE = 'Product deleted successfully!';
export const deleteFailedMessage = (message: string) => `Error deleting product: ${message}`;

/** Product list and profile load failures. */
export const loadFailedMessage = (message: string) => `Error: ${message}`;

/** What an unknown thrown value says, for the messages above. */
export function messageOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return 'Unknown error';
}

export const PRODUCT_UPDATED_MESSAGE = 'Product updated successfully!';
export const updateFailedMessage = (message: string) => `Error updating product: ${message}`;
export const NOTHING_TO_UPDATE_MESSAGE = 'Nothing to update: no field was changed.';
/** The edit page's offer after a 409 for a product someone changed since it was opened. */
export const CHANGED_ELSEWHERE_MESSAGE =
  'This product was changed elsewhere (in another tab or on another device) since you opened it. Reload it to see the latest version, then make your change again.';

// The inbox of order requests (issue 12), in the style of the spec's toasts.
export const REQUEST_ACCEPTED_MESSAGE = 'Request accepted successfully!';
export const REQUEST_DECLINED_MESSAGE = 'Request declined.';
export const REQUEST_FULFILLED_MESSAGE = 'Request marked as fulfilled.';
export const REQUEST_CANCELLED_MESSAGE = 'Request cancelled.';
export const acceptFailedMessage = (message: string) => `Error accepting request: ${message}`;
export const declineFailedMessage = (message: string) => `Error declining request: ${message}`;
export const fulfilFailedMessage = (message: string) => `Error marking request as fulfilled: ${message}`;
export const cancelFailedMessage = (message: string) => `Error cancelling request: ${message}`;
