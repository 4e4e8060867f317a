// /prices/<tuber> (issue 27): a tuber's public price guide. The page lives in ../prices/. Exposed as landing/PricePage;
// the shell mounts it on prices/:tuber and says so to remotes (ShellContract.serves), which link to it only then.
import type { PagePrefetchContext } from '@tuber/shell-contract';
import { PricePage } from '../prices/PricePage.js';
import { isTuberSlug, locationFromSearch } from '../prices/priceView.js';
import { prefetchPriceHistory } from '../prices/usePriceHistory.js';

export default PricePage;

/** The shell's first-load prefetch: the figures start travelling while React builds the page. */
export function prefetch({ api, url }: PagePrefetchContext): void {
  const slug = url.pathname.split('/')[2];
  if (isTuberSlug(slug)) prefetchPriceHistory(api, slug, locationFromSearch(url.search));
}
