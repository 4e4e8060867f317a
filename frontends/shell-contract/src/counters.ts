// Counters the shell shows as badges (issue 12): the cart's item count and the unread order requests.
// A remote sets or asks for a refresh; the shell's header and sidebar read them. This package is
// the one federation singleton of ours, so the shell and every remote share this one store.
import { useSyncExternalStore } from 'react';

export type CounterName = 'cart' | 'unread';

const values = new Map<CounterName, number>();
const listeners = new Map<CounterName, Set<() => void>>();
const refreshers = new Map<CounterName, Set<() => void>>();

const setOf = <T>(map: Map<CounterName, Set<T>>, name: CounterName): Set<T> => {
  let set = map.get(name);
  if (!set) map.set(name, (set = new Set()));
  return set;
};

export function counterValue(name: CounterName): number {
  return values.get(name) ?? 0;
}

export function setCounter(name: CounterName, value: number): void {
  const next = Math.max(0, Math.floor(Number.isFinite(value) ? value : 0));
  if (values.get(name) === next) return;
  values.set(name, next);
  setOf(listeners, name).forEach((listener) => listener());
}

export function subscribeCounter(name: CounterName, listener: () => void): () => void {
  setOf(listeners, name).add(listener);
  return () => void setOf(listeners, name).delete(listener);
}

/** The current value, re-rendering on change. */
export function useCounter(name: CounterName): number {
  return useSyncExternalStore(
    (listener) => subscribeCounter(name, listener),
    () => counterValue(name),
    () => counterValue(name),
  );
}

/** Ask whoever keeps the counter (the shell polls `unread`) to fetch it now, e.g. after opening a request. */
export function refreshCounter(name: CounterName): void {
  setOf(refreshers, name).forEach((refresh) => refresh());
}

/** For the keeper of a counter: called on refreshCounter(name). Returns the unsubscribe function. */
export function onCounterRefresh(name: CounterName, refresh: () => void): () => void {
  setOf(refreshers, name).add(refresh);
  return () => void setOf(refreshers, name).delete(refresh);
}
