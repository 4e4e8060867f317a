// The buyer's price marker for one product (issue 27): where its ₦ per kg stands against its tuber's figures this
// week, in the buyer's language; nothing when there are no figures.
import type { PriceNow } from '@tuber/contracts';
import { PriceMarker } from '@tuber/ui';
import type { Product } from '../catalog/types.js';
import { useBuyerT } from '../i18n/t.js';
import { tuberName, unitText } from '../i18n/words.js';
import { productPerKg } from './pricesNow.js';

export function PriceMarkerOf({ product, now }: { product: Product; now: PriceNow | undefined }) {
  const t = useBuyerT();
  const perKg = productPerKg(product);
  if (!now || perKg === undefined) return null;
  return <PriceMarker now={now} pricePerKg={perKg} tuberName={tuberName(product.tuber_type, t)} perKgLabel={unitText('kg', t)} />;
}
