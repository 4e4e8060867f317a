// Whether the browser says it has no network (navigator.onLine false is reliable; true may still fail, and
// the API client's status 0 then tells the same).
export const isOffline = (): boolean => typeof navigator !== 'undefined' && navigator.onLine === false;
