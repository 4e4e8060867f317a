// Idempotency keys of product posts (issue 24, ADR 0059): one record per farmer and key, decided by a
// unique index, which FerretDB 1.x applies atomically like MongoDB (it has no transactions, and needs
// none here). The record names the product id the post makes, so whichever try finishes the post — the
// first, a replica the gateway re-sent it to, two at once — makes that one product and no other.
import { createHash } from 'node:crypto';
import { Schema, type Connection, type InferSchemaType } from 'mongoose';

/** How long a key is kept: far beyond any retry (the gateway's 10 s, a farmer pressing Post again). */
export const POST_KEY_KEPT_MS = 24 * 60 * 60 * 1000;

export const KEY_REUSED_MESSAGE = 'This Idempotency-Key was already used for another product. Send a new key for each new product.';

const PostKeySchema = new Schema(
  {
    farmer_id: { type: String, required: true },
    key: { type: String, required: true },
    /** sha256 of the post's body as canonical JSON: the same key with another body is refused. */
    fingerprint: { type: String, required: true },
    /** Chosen with the key: every try of this post makes this product, so a repeat can only find it. */
    product_id: { type: String, required: true },
    created_at: { type: Date, required: true },
    /** The 201 body, once the product is saved; every repeat is answered with these bytes. */
    answer: { type: String },
  },
  { collection: 'product_post_key', versionKey: false },
);
// Scoped per farmer: another farmer's same key is another post. Old keys go in `sweep` (FerretDB 1.x
// refuses TTL indexes; on MongoDB `{ created_at: 1 }, { expireAfterSeconds: 86400 }` would do it).
PostKeySchema.index({ farmer_id: 1, key: 1 }, { unique: true });

export type PostKeyDocument = InferSchemaType<typeof PostKeySchema>;

export function postKeyModel(connection: Connection) {
  return connection.model('ProductPostKey', PostKeySchema);
}
export type PostKeyModel = ReturnType<typeof postKeyModel>;

/** The key of an Idempotency-Key header (the draft's quoted String, or a bare token); undefined without one. */
export function postKeyOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  return header.startsWith('"') && header.endsWith('"') && header.length >= 2 ? header.slice(1, -1) : header;
}

/** JSON with every object's keys sorted: two bodies that differ only in key order are the same post. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** What identifies a post's body: sha256 of its canonical JSON, hex. */
export const postFingerprint = (body: unknown): string => createHash('sha256').update(canonicalJson(body)).digest('hex');

/** What a key found says about this try of the post. */
export type PostKeyVerdict =
  /** Answered before: send these bytes again with 201. */
  | { kind: 'answered'; answer: string }
  /** The key went with another body. */
  | { kind: 'other-body' }
  /** Nobody finished it yet (a try in flight, or one whose replica died): finish it as this product. */
  | { kind: 'open'; productId: string };

export function verdictOf(found: Pick<PostKeyDocument, 'fingerprint' | 'product_id' | 'answer'>, fingerprint: string): PostKeyVerdict {
  if (found.fingerprint !== fingerprint) return { kind: 'other-body' };
  if (found.answer) return { kind: 'answered', answer: found.answer };
  return { kind: 'open', productId: found.product_id };
}

const isDuplicateKey = (err: unknown) => (err as { code?: number } | null)?.code === 11000;

/** The keys of one farmer's posts. `now` is for tests. */
export function postKeys(PostKey: PostKeyModel, now: () => number = Date.now) {
  /** The farmer's live record of `key`; an expired one is removed and counts as none. */
  async function live(farmerId: string, key: string) {
    const found = await PostKey.findOne({ farmer_id: farmerId, key }).lean();
    if (found && now() - found.created_at.getTime() >= POST_KEY_KEPT_MS) {
      await PostKey.deleteOne({ _id: found._id });
      return null;
    }
    return found;
  }

  return {
    /** What a repeat finds before any work: undefined when the key is new (or expired). */
    async look(farmerId: string, key: string, fingerprint: string): Promise<PostKeyVerdict | undefined> {
      const found = await live(farmerId, key);
      return found ? verdictOf(found, fingerprint) : undefined;
    },

    /**
     * Takes the key for this post, naming `productId` as its product; if another try took it first
     * (the unique index refuses the second insert, on FerretDB as on MongoDB), answers what that one says.
     */
    async claim(farmerId: string, key: string, fingerprint: string, productId: string): Promise<PostKeyVerdict> {
      for (let attempt = 0; ; attempt++) {
        try {
          await PostKey.create({ farmer_id: farmerId, key, fingerprint, product_id: productId, created_at: new Date(now()) });
          // The farmer's expired keys go with their next new one: the collection stays a day of posts.
          await PostKey.deleteMany({ farmer_id: farmerId, created_at: { $lt: new Date(now() - POST_KEY_KEPT_MS) } });
          return { kind: 'open', productId };
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
        }
        const found = await live(farmerId, key);
        if (found) return verdictOf(found, fingerprint);
        // It had just expired and is gone now: take it again (once is enough; more means something else is wrong).
        if (attempt >= 2) throw new Error(`the key of farmer ${farmerId}'s post could not be taken`);
      }
    },

    /**
     * Keeps the post's answer and returns the one kept: the first written, so every try answers the
     * same bytes (two tries finishing together both write; FerretDB 1.x may let both, and they agree).
     */
    async answer(farmerId: string, key: string, answer: string): Promise<string> {
      await PostKey.updateOne({ farmer_id: farmerId, key, answer: { $exists: false } }, { $set: { answer } });
      const kept = await PostKey.findOne({ farmer_id: farmerId, key }, { answer: 1 }).lean();
      return kept?.answer ?? answer;
    },
  };
}
export type PostKeys = ReturnType<typeof postKeys>;
