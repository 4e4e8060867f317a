import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { followToastAction, ToastHost } from '../../src/toast/ToastHost.js';
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
  it('keeps three at most by default, so a burst of outcomes cannot cover the page (issue 13)', () => {
    const toasts = createToastStore({ durationMs: 0 });
    ['one', 'two', 'three', 'four', 'five'].forEach((message) => toasts.success(message));
    expect(toasts.getSnapshot().map((toast) => toast.message)).toEqual(['three', 'four', 'five']);
  });
  it('keeps the snapshot stable between changes (for useSyncExternalStore)', () => {
    const toasts = createToastStore({ durationMs: 0 });
    toasts.info('hello');
    expect(toasts.getSnapshot()).toBe(toasts.getSnapshot());
  });
});

describe('a toast with an action ("View cart")', () => {
  const click = (overrides: Partial<{ button: number; metaKey: boolean; ctrlKey: boolean; shiftKey: boolean; altKey: boolean }> = {}) => {
    const event = { button: 0, metaKey: false, ctrlKey: false, shiftKey: false, altKey: false, prevented: false, ...overrides };
    return Object.assign(event, { preventDefault: () => void (event.prevented = true) });
  };

  it('keeps the action with the toast', () => {
    const toasts = createToastStore({ durationMs: 0 });
    toasts.success('Item added to cart', { action: { label: 'View cart', to: '/dashboard/cart' } });
    toasts.info('quantity increased');
    expect(toasts.getSnapshot()).toEqual([
      { id: 1, kind: 'success', message: 'Item added to cart', action: { label: 'View cart', to: '/dashboard/cart' } },
      { id: 2, kind: 'info', message: 'quantity increased' },
    ]);
  });

  it('renders the action as a link to its path, between the message and Dismiss', () => {
    const toasts = createToastStore({ durationMs: 0 });
    toasts.success('Item added to cart', { action: { label: 'View cart', to: '/dashboard/cart' } });
    const html = renderToStaticMarkup(createElement(ToastHost, { store: toasts }));
    expect(html).toMatch(/Item added to cart<\/span><a href="\/dashboard\/cart"[^>]*>View cart<\/a><button[^>]*aria-label="Dismiss"/);
  });

  it('follows a plain click through the router (no page load)', () => {
    const went: string[] = [];
    const event = click();
    expect(followToastAction(event, '/dashboard/cart', (to) => went.push(to))).toBe(true);
    expect(event.prevented).toBe(true);
    expect(went).toEqual(['/dashboard/cart']);
  });

  it('leaves a modified click (new tab) and a host without a router to the browser', () => {
    const went: string[] = [];
    for (const modified of [click({ ctrlKey: true }), click({ metaKey: true }), click({ shiftKey: true }), click({ button: 1 })]) {
      expect(followToastAction(modified, '/dashboard/cart', (to) => went.push(to))).toBe(false);
      expect(modified.prevented).toBe(false);
    }
    const plain = click();
    expect(followToastAction(plain, '/dashboard/cart')).toBe(false);
    expect(plain.prevented).toBe(false);
    expect(went).toEqual([]);
  });
});
