// One writer of a Keycloak account's attributes at a time (the admin API replaces them wholesale, so two
// read-then-update writers could undo each other): the language route and the pending_profile consumer.
//   auth:lock:account:<user id>
export const accountLockKey = (userId: string) => `auth:lock:account:${userId}`;
