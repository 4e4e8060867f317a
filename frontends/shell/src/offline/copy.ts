// The shell's offline words, in one place so the translation work can take them over (issue 13).
// Plain English for now; the spec has no copy for these.

/** The bar shown while the network is away. */
export const OFFLINE_BAR_TEXT = 'You are offline — showing what you saw last';

/**
 * What a send (POST/PATCH/PUT/DELETE) gets while offline. The same sentence as the API client's
 * OFFLINE_SEND_MESSAGE in @tuber/ui (a unit test keeps them equal); the service worker answers with this
 * one for the remotes that send with fetch of their own (the buyer's order request).
 */
export const OFFLINE_SEND_MESSAGE = 'You are offline. Sending needs the network — nothing was sent; try again when you are back online.';
