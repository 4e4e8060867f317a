// Dates in the reader's language and Lagos time (issue 25), through Intl, with CLDR data for a browser that
// lacks the language (Chromium has no Yoruba, Hausa, Igbo or Pidgin dates).
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.restoreAllMocks();
  vi.resetModules();
});

describe('dates', () => {
  it('writes a moment in Lagos time, with minutes in two digits, whatever the machine’s zone', async () => {
    const { momentWords, dayWords } = await import('../../src/i18n/dates.js');
    expect(momentWords('2026-11-28T10:04:00Z', {}, 'en')).toBe('28 Nov 2026, 11:04');
    expect(momentWords('2026-11-28T23:30:00Z', {}, 'en')).toBe('29 Nov 2026, 00:30');
    expect(dayWords('2027-01-12', {}, 'en')).toBe('12 Jan 2027');
    expect(dayWords('2027-01-12', { year: false, weekday: true }, 'en')).toBe('Tue, 12 Jan');
    expect(dayWords('not a day', {}, 'en')).toBe('not a day');
  });

  it('a browser without Yoruba dates gets them from CLDR, not in English', async () => {
    // As in Chromium: the engine knows no Yoruba, Hausa, Igbo or Pidgin dates.
    const real = Intl.DateTimeFormat.supportedLocalesOf.bind(Intl.DateTimeFormat);
    vi.spyOn(Intl.DateTimeFormat, 'supportedLocalesOf').mockImplementation((locales, options) =>
      [locales].flat().some((l) => /^(yo|ha|ig|pcm)\b/.test(String(l))) ? [] : real(locales as string[], options),
    );
    const { ensureDateLocale, momentWords, dayWords } = await import('../../src/i18n/dates.js');
    // Before the data: Nigerian English, never the US style.
    expect(dayWords('2026-11-28', {}, 'yo')).toBe('28 Nov 2026');
    await ensureDateLocale('yo');
    await ensureDateLocale('ha');
    const yoruba = dayWords('2026-11-28', {}, 'yo');
    expect(yoruba).toMatch(/2026/);
    expect(yoruba).not.toMatch(/Nov/);
    // 10:04 UTC is 11:04 in Lagos; the ponyfill has no zone data and is handed the hour already moved.
    expect(momentWords('2026-11-28T10:04:00Z', {}, 'ha')).toMatch(/11:04/);
    expect(momentWords('2026-11-28T10:04:00Z', {}, 'yo')).toMatch(/11:04/);
  });
});
