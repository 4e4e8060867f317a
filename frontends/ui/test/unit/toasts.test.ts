import { describe, expect, it } from 'vitest';
import { createToastStore } from '../../src/toast/toastStore.js';

function manualTimers() {
  const pending: { run: () => void; ms: number }[] = [];
  return { pending, setTimer: (run: () => void, ms: number) => pending.push({ run, ms }) };
}

describe('toast store (toast messages report outcomes)', () => {
  it('shows "item added to cart" as a success toast and tells subscribers', () => {
    const timers = manualTimers();
    const toasts = createToastStore({ setTimer: timers.setTimer });
    let notified = 0;
    toasts.subscribe(() => notified++);
    toasts.success('item added to cart');
    expect(toasts.getSnapshot()).toEqual([{ id: 1, kind: 'success', message: 'item added to cart' }]);
    expect(notified).toBe(1);
  });
  it('removes a toast after its duration', () => {
    const timers = manualTimers();
    const toasts = createToastStore({ durationMs: 4000, setTimer: timers.setTimer });
    toasts.error('Error logging in: Invalid credentials');
    expect(timers.pending[0]?.ms).toBe(4000);
    timers.pending[0]?.run();
    expect(toasts.getSnapshot()).toEqual([]);
  });
  it('can be dismissed by hand and ignores unknown ids', () => {
    const toasts = createToastStore({ durationMs: 0 });
    const id = toasts.show('info', 'quantity increased');
    toasts.dismiss(999);
    expect(toasts.getSnapshot()).toHaveLength(1);
    toasts.dismiss(id);
    expect(toasts.getSnapshot()).toEqual([]);
  });
  it('keeps only the newest few', () => {
    const toasts = createToastStore({ durationMs: 0, limit: 2 });
    ['one', 'two', 'three'].forEach((message) => toasts.info(message));
    expect(toasts.getSnapshot().map((toast) => toast.message)).toEqual(['two', 'three']);
  });
  it('keeps the snapshot stable between changes (for useSyncExternalStore)', () => {
    const toasts = createToastStore({ durationMs: 0 });
    toasts.info('hello');
    expect(toasts.getSnapshot()).toBe(toasts.getSnapshot());
  });
});
