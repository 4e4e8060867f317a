// What a report or a moderator's action names, resolved from this service's copies: the title people read, the
// farmer (and a request's buyer) it concerns, and their standing as moderators left it.
import type { ReportTargetKind, TargetSummary } from '@tuber/contracts';
import type { ModerationModels } from './models.js';

export interface ResolvedTarget {
  kind: ReportTargetKind;
  id: string;
  title: string;
  farmerId?: string;
  buyerId?: string;
}

/** The target as known here, or undefined (not copied yet, deleted account's farm, or never existed). */
export async function resolveTarget(models: ModerationModels, kind: ReportTargetKind, id: string): Promise<ResolvedTarget | undefined> {
  if (kind === 'product') {
    const product = await models.ProductCopy.findById(id).lean();
    if (!product) return undefined;
    return { kind, id, title: product.name || id, farmerId: product.farmer_id };
  }
  if (kind === 'farmer') {
    const farm = await models.FarmCopy.findById(id).lean();
    if (!farm) return undefined;
    return { kind, id, title: farm.business_name || id, farmerId: id };
  }
  const request = await models.RequestCopy.findById(id).lean();
  if (!request) return undefined;
  return { kind, id, title: request.number, farmerId: request.farmer_id, buyerId: request.buyer_id };
}

/** The summary the desk shows: the target and the standing of its listing and accounts. */
export async function summarise(models: ModerationModels, target: ResolvedTarget): Promise<TargetSummary> {
  const [listing, farmer, buyer] = await Promise.all([
    target.kind === 'product' ? models.ListingState.findById(target.id).lean() : null,
    target.farmerId ? models.AccountState.findById(target.farmerId).lean() : null,
    target.buyerId ? models.AccountState.findById(target.buyerId).lean() : null,
  ]);
  return {
    target_kind: target.kind,
    target_id: target.id,
    title: target.title,
    ...(target.farmerId ? { farmer_id: target.farmerId } : {}),
    ...(target.buyerId ? { buyer_id: target.buyerId, buyer_suspended: Boolean(buyer?.suspended) } : {}),
    hidden: Boolean(listing?.hidden),
    ...(listing?.hidden && listing.reason ? { hidden_reason: listing.reason } : {}),
    farmer_suspended: Boolean(farmer?.suspended),
  };
}
