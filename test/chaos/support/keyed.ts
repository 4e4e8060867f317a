// Keyed commands (R1, R8): farmers post products (two fresh photos each), delete some of their
// earlier posts and change their business name, one farmer's commands in order, through the
// gateway. Every command has a key, so that afterwards its effect can be looked up in the
// consumers' own databases and in the event stream: nothing missing, nothing doubled. A post carries an
// Idempotency-Key made from its command's key (ADR 0059), as the farmer's app sends one per submission:
// the gateway may then send it to another replica after one took it.
import { createHash } from 'node:crypto';
import type mongoose from 'mongoose';
import { ImageRemoved } from '@tuber/contracts';
import type { BusProbe } from './faults.js';
import { actors, newProduct, pool, until, uploadPhoto, type Actor, type Recorder } from './traffic.js';

export type Command =
  | { kind: 'post'; key: string; imageIds: string[] }
  | { kind: 'delete'; key: string; of: string }
  | { kind: 'change'; key: string; revision: number };

export interface Post {
  key: string;
  farmer: string;
  productId?: string;
  imageIds: string[];
  deleted: boolean;
}

export interface KeyedDatabases {
  catalog: mongoose.Connection;
  media: mongoose.Connection;
  profile: mongoose.Connection;
}

export interface KeyedPlan {
  /** Every key starts with it (e.g. "R1 <run>"). */
  prefix: string;
  farmers: number;
  postsPerFarmer: number;
  deletesPerFarmer: number;
  /** Commands in all; what the posts and deletes leave are profile changes. */
  total: number;
}

export interface KeyedSetup {
  farmers: Actor[];
  farmerIds: string[];
  scripts: Command[][];
  startRevision: Map<string, number>;
  photoCount: number;
  changesTotal: number;
  setupSeconds: number;
}

/** Farmers with their catalog projection, two fresh photos per product, and each farmer's script. */
export async function keyedSetup(plan: KeyedPlan, db: KeyedDatabases): Promise<KeyedSetup> {
  const started = Date.now();
  const farmers = await actors('farmer', plan.farmers);
  const farmerIds = farmers.map((f) => f.id);
  const projected = await until(
    () => db.catalog.collection('farmer').countDocuments({ farmer_id: { $in: farmerIds } }),
    (n) => n === plan.farmers,
    60_000,
  );
  if (projected !== plan.farmers) throw new Error(`only ${projected} of ${plan.farmers} farmers reached the catalog`);

  const photos = new Map<string, string[]>();
  await pool(
    8,
    farmers.flatMap((farmer) =>
      Array.from({ length: 2 * plan.postsPerFarmer }, () => async () => {
        const id = await uploadPhoto(farmer);
        photos.set(farmer.id, [...(photos.get(farmer.id) ?? []), id]);
      }),
    ),
  );
  const allPhotos = [...photos.values()].flat();
  const seen = await until(
    () => db.catalog.collection('image').countDocuments({ image_id: { $in: allPhotos } }),
    (n) => n === allPhotos.length,
    60_000,
  );
  if (seen !== allPhotos.length) throw new Error(`only ${seen} of ${allPhotos.length} photos reached the catalog`);

  const startRevision = new Map<string, number>();
  for (const doc of await db.profile
    .collection('farmer')
    .find({ user_id: { $in: farmerIds } }, { projection: { user_id: 1, revision: 1 } })
    .toArray()) {
    startRevision.set(doc.user_id as string, doc.revision as number);
  }
  // Posts spread among profile changes, each delete right after the next post.
  const changesTotal = plan.total - plan.farmers * (plan.postsPerFarmer + plan.deletesPerFarmer);
  const scripts = farmers.map((farmer, f) => {
    const changes = Math.floor(changesTotal / plan.farmers) + (f < changesTotal % plan.farmers ? 1 : 0);
    const ids = photos.get(farmer.id)!;
    const script: Command[] = [];
    let revision = startRevision.get(farmer.id)!;
    let changed = 0;
    const key = (what: string) => `${plan.prefix} f${f} ${what}`;
    for (let p = 0; p < plan.postsPerFarmer; p++) {
      script.push({ kind: 'post', key: key(`p${p}`), imageIds: ids.slice(2 * p, 2 * p + 2) });
      if (p >= 1 && p - 1 < plan.deletesPerFarmer) script.push({ kind: 'delete', key: key(`p${p - 1}`), of: key(`p${p - 1}`) });
      const share = Math.floor(changes / plan.postsPerFarmer) + (p < changes % plan.postsPerFarmer ? 1 : 0);
      for (let c = 0; c < share; c++) script.push({ kind: 'change', key: key(`c${changed++}`), revision: ++revision });
    }
    return script;
  });
  return {
    farmers,
    farmerIds,
    scripts,
    startRevision,
    photoCount: allPhotos.length,
    changesTotal,
    setupSeconds: (Date.now() - started) / 1000,
  };
}

/** One answer of a command, with when it was sent and answered (ms since the epoch). */
export interface CommandAnswer {
  key: string;
  kind: Command['kind'];
  status: number;
  sentAt: number;
  answeredAt: number;
  message: string;
}

/** The Idempotency-Key of a post command: the same for every try of it, in the draft's quoted form. */
export const postKeyOf = (commandKey: string): string => `"${createHash('sha256').update(commandKey).digest('hex').slice(0, 32)}"`;

/** Sends the scripts, recording what each command did. */
export class KeyedDriver {
  readonly posts = new Map<string, Post>();
  readonly changesAccepted = new Map<string, number>();
  readonly answers: CommandAnswer[] = [];
  /** Deletes not sent because their post was refused. */
  skipped = 0;
  done = 0;

  constructor(private readonly recorder: Recorder) {}

  /** Commands answered otherwise than expected (201, 204, 200). */
  get refused(): CommandAnswer[] {
    return this.answers.filter((a) => a.status !== { post: 201, delete: 204, change: 200 }[a.kind]);
  }

  async drive(farmer: Actor, script: Command[]): Promise<void> {
    const recorder = this.recorder;
    for (const command of script) {
      const sentAt = Date.now();
      const note = (status: number, body: { message?: string } | undefined) =>
        this.answers.push({ key: command.key, kind: command.kind, status, sentAt, answeredAt: Date.now(), message: body?.message ?? '' });
      if (command.kind === 'post') {
        const answer = await farmer.call('POST', '/api/catalog/products', {
          json: newProduct(command.key, command.imageIds),
          headers: { 'idempotency-key': postKeyOf(command.key) },
          recorder,
        });
        this.posts.set(command.key, {
          key: command.key,
          farmer: farmer.id,
          productId: answer.status === 201 ? answer.body?.product_id : undefined,
          imageIds: command.imageIds,
          deleted: false,
        });
        note(answer.status, answer.body);
      } else if (command.kind === 'delete') {
        const post = this.posts.get(command.of);
        if (!post?.productId) {
          this.skipped += 1; // its post was refused: there is nothing to delete
        } else {
          const answer = await farmer.call('DELETE', `/api/catalog/products/${post.productId}`, { recorder });
          if (answer.status === 204) post.deleted = true;
          note(answer.status, answer.body);
        }
      } else {
        const answer = await farmer.call('PATCH', '/api/profile/me', { json: { business_name: command.key }, recorder });
        if (answer.status === 200) this.changesAccepted.set(farmer.id, (this.changesAccepted.get(farmer.id) ?? 0) + 1);
        note(answer.status, answer.body);
      }
      this.done += 1;
    }
  }
}

export interface KeyedEffects {
  effects: number;
  missing: string[];
  missingCount: number;
  doubled: string[];
  sent: { post: number; delete: number; change: number };
}

/**
 * Looks every command's effect up by its key. A post answered 201: its product once in the catalog,
 * its photos attached to it in media. A delete answered 204: the product gone, its photos gone from
 * media, marked removed in the catalog and announced removed once (ImageRemoved after `removedFrom`).
 * A profile change: latest wins by revision, so the catalog must end on the profile's last revision
 * and name, on the farmer and on each of their products. `unsettled` keys (a command whose answer
 * was lost with a killed process) are checked for doubles only.
 */
export async function keyedEffects(
  setup: KeyedSetup,
  driver: KeyedDriver,
  db: KeyedDatabases,
  probe: BusProbe,
  options: { prefix: string; removedFrom: number; unsettled?: ReadonlySet<string> },
): Promise<KeyedEffects> {
  const unsettled = options.unsettled ?? new Set<string>();
  const allPosts = [...driver.posts.values()];
  const productsByKey = new Map<string, number>();
  for (const doc of await db.catalog
    .collection('product')
    .find({ product_name: { $in: allPosts.map((p) => p.key) } }, { projection: { product_name: 1 } })
    .toArray()) {
    productsByKey.set(doc.product_name as string, (productsByKey.get(doc.product_name as string) ?? 0) + 1);
  }
  const imageIds = allPosts.flatMap((p) => p.imageIds);
  const group = async <T>(collection: mongoose.Collection, projection: Record<string, 1>) => {
    const out = new Map<string, T[]>();
    for (const doc of await collection.find({ image_id: { $in: imageIds } }, { projection: { image_id: 1, ...projection } }).toArray())
      out.set(doc.image_id as string, [...(out.get(doc.image_id as string) ?? []), doc as T]);
    return out;
  };
  const mediaImages = await group<{ product_id: string | null }>(db.media.collection('image'), { product_id: 1 });
  const catalogImages = await group<{ removed?: boolean }>(db.catalog.collection('image'), { removed: 1 });
  const removals = new Map<string, number>();
  for (const event of await probe.read<{ image_id: string }>(ImageRemoved.subject, options.removedFrom)) {
    removals.set(event.image_id, (removals.get(event.image_id) ?? 0) + 1);
  }

  const result: KeyedEffects = { effects: 0, missing: [], missingCount: 0, doubled: [], sent: { post: 0, delete: 0, change: 0 } };
  const { missing, doubled, sent } = result;
  for (const post of allPosts) {
    const copies = productsByKey.get(post.key) ?? 0;
    if (copies > 1) doubled.push(`${post.key}: ${copies} products`);
    for (const id of post.imageIds) {
      if ((mediaImages.get(id)?.length ?? 0) > 1) doubled.push(`${post.key}: photo ${id} has ${mediaImages.get(id)!.length} media records`);
      if ((catalogImages.get(id)?.length ?? 0) > 1)
        doubled.push(`${post.key}: photo ${id} has ${catalogImages.get(id)!.length} catalog records`);
      if ((removals.get(id) ?? 0) > 1) doubled.push(`${post.key}: photo ${id} announced removed ${removals.get(id)} times`);
    }
    if (!post.productId || unsettled.has(post.key)) continue; // refused or unknown: counted by the caller
    sent.post += 1;
    if (post.deleted) {
      // The post's own effect (its photos were attached) is gone with it; the delete's effect is checked here.
      sent.delete += 1;
      result.effects += 1; // the post was answered 201 and its photos were then removed with it (below)
      const left = post.imageIds.filter((id) => mediaImages.has(id));
      const notRemoved = post.imageIds.filter((id) => !catalogImages.get(id)?.[0]?.removed);
      const unannounced = post.imageIds.filter((id) => !removals.has(id));
      if (copies > 0 || left.length || notRemoved.length || unannounced.length) {
        result.missingCount += 1;
        missing.push(
          `delete ${post.key}: product records ${copies}, media records left ${left.length}, catalog not marked removed ${notRemoved.length}, no ImageRemoved ${unannounced.length}`,
        );
      } else result.effects += 1;
    } else {
      const attached = post.imageIds.filter((id) => mediaImages.get(id)?.[0]?.product_id === post.productId);
      if (copies === 0 || attached.length !== post.imageIds.length) {
        result.missingCount += 1;
        missing.push(`post ${post.key}: product records ${copies}, photos attached in media ${attached.length}/${post.imageIds.length}`);
      } else result.effects += 1;
    }
  }

  const finalProfiles = new Map<string, { revision: number; business_name: string }>();
  for (const doc of await db.profile
    .collection('farmer')
    .find({ user_id: { $in: setup.farmerIds } }, { projection: { user_id: 1, revision: 1, business_name: 1 } })
    .toArray()) {
    finalProfiles.set(doc.user_id as string, { revision: doc.revision as number, business_name: doc.business_name as string });
  }
  const catalogFarmers = new Map<string, { business_name: string; revision: number }[]>();
  for (const doc of await db.catalog
    .collection('farmer')
    .find({ farmer_id: { $in: setup.farmerIds } })
    .toArray()) {
    catalogFarmers.set(doc.farmer_id as string, [
      ...(catalogFarmers.get(doc.farmer_id as string) ?? []),
      { business_name: doc.business_name as string, revision: doc.revision as number },
    ]);
  }
  const liveProducts = await db.catalog
    .collection('product')
    .find(
      { farmer_id: { $in: setup.farmerIds }, product_name: { $regex: `^${options.prefix} ` } },
      { projection: { farmer_id: 1, business_name: 1 } },
    )
    .toArray();
  for (const farmer of setup.farmers) {
    const made = driver.changesAccepted.get(farmer.id) ?? 0;
    sent.change += made;
    const copies = catalogFarmers.get(farmer.id) ?? [];
    if (copies.length > 1) doubled.push(`farmer ${farmer.id}: ${copies.length} catalog records`);
    const copy = copies[0];
    const final = finalProfiles.get(farmer.id);
    const start = setup.startRevision.get(farmer.id)!;
    const stale = liveProducts.filter((p) => p.farmer_id === farmer.id && p.business_name !== final?.business_name).length;
    if (
      final &&
      copy &&
      final.revision >= start + made &&
      copy.revision === final.revision &&
      copy.business_name === final.business_name &&
      stale === 0
    ) {
      result.effects += made;
    } else {
      const lost = Math.min(made, Math.max(1, (final?.revision ?? start + made) - (copy?.revision ?? start)));
      result.effects += made - lost;
      result.missingCount += lost;
      missing.push(
        `farmer ${farmer.id}: ${made} changes accepted from revision ${start}; profile revision ${final?.revision} "${final?.business_name}", ` +
          `catalog revision ${copy?.revision} "${copy?.business_name}", products with an old name ${stale}`,
      );
    }
  }
  return result;
}
