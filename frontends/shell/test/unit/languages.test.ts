// The shell in other languages (issue 13): the header's switch, the dashboard badges' spoken counts and a
// failure toast follow the chosen language; English stays the spec's copy.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, describe, expect, it } from 'vitest';
import { getLocale, setLocale } from '@tuber/shell-contract';
import { loadCatalogue } from '@tuber/ui';
import { badgeLabel } from '../../src/dashboard/menus.js';
import { shellCatalogue } from '../../src/i18n/catalogue.js';
import { LanguageSwitch } from '../../src/layout/LanguageSwitch.js';
import { profileFailure } from '../../src/session/profileSetup.js';

afterAll(() => setLocale('en'));

describe('the shell in the chosen language', () => {
  it('the switch is a labelled native select listing each language in its own name, the current one chosen', () => {
    expect(getLocale()).toBe('en');
    const html = renderToStaticMarkup(createElement(LanguageSwitch));
    expect(html).toMatch(/<label for="([^"]+)"[^>]*>Language<\/label>.*<select id="\1"/);
    const options = [...html.matchAll(/<option value="(\w+)" lang="\w+"( selected="")?>([^<]+)<\/option>/g)].map(
      ([, code, selected, label]) => `${code}${selected ? '*' : ''}=${label}`,
    );
    expect(options).toEqual(['en*=English', 'pcm=Pidgin', 'yo=Yorùbá', 'ha=Hausa', 'ig=Igbo']);
  });

  it('speaks the badges and the profile failure in English by default, then in Yoruba', async () => {
    expect(badgeLabel('cart', 3)).toBe('3 items in cart');
    expect(profileFailure(new Error('offline'))).toBe('Failed to create profile: offline');
    setLocale('yo');
    await loadCatalogue(shellCatalogue, 'yo');
    expect(badgeLabel('cart', 3)).toBe('ọjà 3 nínú apẹ̀rẹ̀');
    expect(badgeLabel('unread', 1)).toBe('ìbéèrè 1 tí o kò tíì kà');
    expect(profileFailure(new Error('offline'))).toBe('A kò lè ṣẹ̀dá àkọsílẹ̀: offline');
    const html = renderToStaticMarkup(createElement(LanguageSwitch));
    expect(html).toContain('>Èdè</label>');
    expect(html).toContain('<option value="yo" lang="yo" selected="">Yorùbá</option>');
  });
});
