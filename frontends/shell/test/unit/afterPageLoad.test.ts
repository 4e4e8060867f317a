// Work the first screen does not need (unread poll, language kept with the account, manifest, service worker)
// waits for the load event and SETTLE_MS more (issue 13: the feed's largest paint).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterPageLoad, SETTLE_MS } from '../../src/afterPageLoad.js';

let readyState: DocumentReadyState;
let target: EventTarget;

beforeEach(() => {
  vi.useFakeTimers();
  readyState = 'interactive';
  target = new EventTarget();
  vi.stubGlobal('document', {
    get readyState() {
      return readyState;
    },
  });
  vi.stubGlobal('window', target);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const load = () => {
  readyState = 'complete';
  target.dispatchEvent(new Event('load'));
};

describe('afterPageLoad', () => {
  it('runs SETTLE_MS after the load event, once', () => {
    const run = vi.fn();
    afterPageLoad(run);
    vi.advanceTimersByTime(SETTLE_MS * 3);
    expect(run).not.toHaveBeenCalled(); // not before the page has loaded
    load();
    vi.advanceTimersByTime(SETTLE_MS - 1);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
    load();
    vi.advanceTimersByTime(SETTLE_MS * 2);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('counts from now when the page has already loaded', () => {
    readyState = 'complete';
    const run = vi.fn();
    afterPageLoad(run);
    vi.advanceTimersByTime(SETTLE_MS);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs nothing once cancelled, before or after the load event', () => {
    const before = vi.fn();
    const after = vi.fn();
    afterPageLoad(before)();
    const cancelAfter = afterPageLoad(after);
    load();
    cancelAfter();
    vi.advanceTimersByTime(SETTLE_MS * 2);
    expect(before).not.toHaveBeenCalled();
    expect(after).not.toHaveBeenCalled();
  });
});
