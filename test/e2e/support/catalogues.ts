// Waiting for a page's words in a language: the facade records each catalogue whose messages arrived in
// window.__tuberLoadedCatalogues ("<remote>:<language>"); before that a page shows English, which proves nothing.
import type { Page } from 'playwright-core';

/** Waits until the page's catalogues (by remote) have their messages for `language`, and a render after. */
export async function waitForCatalogues(page: Page, language: string, remotes: string[]): Promise<void> {
  await page.waitForFunction(
    ({ language, remotes }) => {
      const loaded = (globalThis as unknown as { __tuberLoadedCatalogues?: Set<string> }).__tuberLoadedCatalogues;
      return remotes.every((remote) => loaded?.has(`${remote}:${language}`));
    },
    { language, remotes },
    { timeout: 20_000 },
  );
  // A render after the last messages arrived: React commits on the next frame.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 80))));
}
