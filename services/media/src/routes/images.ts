import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ImageStored, StoredImage } from '@tuber/contracts';
import {
  badRequest,
  conflict,
  HttpError,
  notFound,
  problem,
  pendingEvent,
  publishRecorded,
  withDocumentLock,
  unavailable,
  type EventBus,
  type ServiceApp,
} from '@tuber/kit';
import { randomUUID } from 'node:crypto';
import type { DecodeGate } from '../domain/decode-gate.js';
import { reserveFileName } from '../domain/file-name.js';
import { countUnattached, removeImageFiles } from '../domain/lifecycle.js';
import { inspectAndClean, makeVariants, RejectedImage, variantName } from '../domain/image.js';
import type { ImageModel } from '../domain/images.js';
import { objectNameOf, randomObjectName } from '../domain/object-name.js';
import type { ImageStore } from '../storage.js';

export interface ImageRouteDeps {
  Image: ImageModel;
  store: ImageStore;
  bus: EventBus;
  gate: DecodeGate;
  maxFileBytes: number;
  maxPixels: number;
  /** Photos a farmer may have uploaded that no product uses yet. */
  maxUnattached: number;
  /** Uploads one farmer may have in progress at once (the add-product page sends up to 5 together). */
  maxParallelPerFarmer: number;
  uploadLimit: { max: number; windowSeconds: number };
  /** How long unattached photos are kept, for the message of the cap. */
  orphanGraceSeconds: number;
}

const error = Type.Ref('ErrorResponse');

/** The answer when the bucket does not take the files (MinIO restarting, down or too slow). */
export const STORE_DOWN_MESSAGE =
  'Your photo could not be saved because photo storage is not answering right now. Nothing was kept: please upload it again in a minute.';

export function imageRoutes(app: ServiceApp, deps: ImageRouteDeps) {
  const toApi = (doc: {
    image_id: string;
    file_name: string;
    object_name?: string | null;
    content_type: string;
    bytes: number;
    width: number;
    height: number;
  }) => {
    const objectName = objectNameOf(doc);
    return {
      image_id: doc.image_id,
      file_name: doc.file_name,
      url: deps.store.publicUrl(objectName),
      card_url: deps.store.publicUrl(variantName(objectName, 'card')),
      thumb_url: deps.store.publicUrl(variantName(objectName, 'thumb')),
      content_type: doc.content_type,
      bytes: doc.bytes,
      width: doc.width,
      height: doc.height,
    };
  };

  const hours = Math.round(deps.orphanGraceSeconds / 3600);
  const capMessage =
    `You already have ${deps.maxUnattached} photos that are not in a product. Post a product with them first; ` +
    `photos no product uses are cleared after ${hours >= 1 ? `${hours} hours` : `${deps.orphanGraceSeconds} seconds`}.`;

  async function readUpload(request: FastifyRequest) {
    if (!request.isMultipart()) throw badRequest('UPLOAD_NOT_MULTIPART', 'Send the photo as multipart/form-data in a field named "file".');
    let part;
    try {
      part = await request.file({ limits: { fileSize: deps.maxFileBytes, files: 1 } });
    } catch (err) {
      // Malformed multipart (no boundary, broken part headers) is the sender's to fix, not a 500.
      if ((err as { statusCode?: number }).statusCode) throw err;
      throw badRequest('UPLOAD_NOT_MULTIPART', 'The upload is not well-formed multipart/form-data. Send the photo in a field named "file".');
    }
    if (!part) throw badRequest('UPLOAD_NO_FILE', 'No file was sent. Choose a photo to upload.');
    try {
      return { name: part.filename, bytes: await part.toBuffer() };
    } catch (err) {
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        throw new HttpError(
          413,
          problem('PHOTO_TOO_LARGE', `This photo is larger than ${Math.round(deps.maxFileBytes / 1_048_576)} MB. Choose a smaller one.`, {
            mb: Math.round(deps.maxFileBytes / 1_048_576),
          }),
        );
      }
      throw err;
    }
  }

  /** Reads, checks and re-encodes one upload; at most a few at a time (the decode gate). */
  const decode = (request: FastifyRequest) =>
    deps.gate.run(async () => {
      const upload = await readUpload(request);
      try {
        const image = await inspectAndClean(upload.bytes, deps.maxPixels);
        return { name: upload.name, image, variants: await makeVariants(image.data) };
      } catch (err) {
        if (err instanceof RejectedImage) throw badRequest(err.code, err.message);
        throw err;
      }
    });

  const farmerOnly = app.requireRole('farmer');

  /** Uploads in progress per farmer, in this process. */
  const inProgress = new Map<string, number>();
  const parallelMessage =
    `You are already uploading ${deps.maxParallelPerFarmer} photos at once. ` + 'Wait until they have finished, then try again.';

  // The gateway asks this (auth_request) before it accepts an upload's body, so that only a
  // signed-in farmer can make it buffer megabytes. nginx takes 2xx as yes and 401/403 as no; the
  // only other answer, 503 when the token cannot be checked right now (Keycloak's keys out of
  // reach), is an error to nginx, which the gateway turns into its own 503.
  app.get(
    '/api/media/images/upload-permit',
    {
      onRequest: farmerOnly,
      schema: {
        summary: 'May the caller upload a photo? For the gateway: 204 yes, 401 not signed in, 403 not a farmer',
        security: [{ bearer: [] }],
        response: { 204: Type.Null({ description: 'A signed-in farmer: the upload may proceed.' }) },
      },
    },
    async (_request, reply) => reply.code(204).send(null),
  );

  app.post(
    '/api/media/images',
    {
      onRequest: [
        farmerOnly,
        app.limitPerUser({
          name: 'uploads',
          max: deps.uploadLimit.max,
          timeWindow: deps.uploadLimit.windowSeconds * 1000,
          what: 'photo uploads',
        }),
      ],
      schema: {
        summary: 'Upload one product photo (multipart field "file"; its file name is kept to 255 bytes)',
        consumes: ['multipart/form-data'],
        security: [{ bearer: [] }],
        response: { 201: StoredImage, 400: error, 409: error, 413: error, 429: error, 503: error },
      },
    },
    async (request, reply) => {
      const farmerId = request.identity.userId;
      // Refused before a byte of the photo is read: too many at once from this farmer (one account
      // cannot take every decoding slot), or too many photos already waiting for a product.
      const running = inProgress.get(farmerId) ?? 0;
      if (running >= deps.maxParallelPerFarmer) throw new HttpError(429, problem('UPLOADS_AT_ONCE', parallelMessage, { max: deps.maxParallelPerFarmer }), { 'retry-after': '5' });
      inProgress.set(farmerId, running + 1);
      try {
        return await storeUpload(request, reply, farmerId);
      } finally {
        const left = (inProgress.get(farmerId) ?? 1) - 1;
        if (left > 0) inProgress.set(farmerId, left);
        else inProgress.delete(farmerId);
      }
    },
  );

  /** After a failed store: waits for every put to end, removes the files, then the record. */
  async function giveUp(imageId: string, objectName: string, puts: Promise<void>[], log: FastifyRequest['log']) {
    await Promise.allSettled(puts);
    try {
      await removeImageFiles(deps.store, objectName);
      await deps.Image.deleteOne({ image_id: imageId, stored: false });
    } catch (err) {
      // MinIO still away: the record keeps naming the files until the clean-up has removed them.
      log.warn({ err, imageId }, 'files of a failed upload not removed yet; the clean-up will');
      await deps.Image.updateOne({ image_id: imageId, stored: false }, { $set: { failed_at: new Date() } }).catch(() => undefined);
    }
  }

  async function storeUpload(request: FastifyRequest, reply: FastifyReply, farmerId: string) {
    if ((await countUnattached(deps.Image, farmerId)) >= deps.maxUnattached) throw conflict('UNATTACHED_PHOTOS', capMessage, { max: deps.maxUnattached });
    const { name, image, variants } = await decode(request);
    const imageId = randomUUID();
    const storedAt = new Date();
    const objectName = randomObjectName(image.contentType);
    const record = {
      image_id: imageId,
      farmer_id: farmerId,
      object_name: objectName,
      content_type: image.contentType,
      bytes: image.data.length,
      width: image.width,
      height: image.height,
      created_at: storedAt,
      stored: false,
    };
    const fileName = await reserveFileName(deps.Image, name, storedAt, record);
    // Counted after our own record exists: of uploads racing each other, the last to count sees
    // them all, so the cap is never passed (at worst one that would have fitted is refused).
    if ((await countUnattached(deps.Image, farmerId)) > deps.maxUnattached) {
      await deps.Image.deleteOne({ image_id: imageId });
      throw conflict('UNATTACHED_PHOTOS', capMessage, { max: deps.maxUnattached });
    }
    const puts = [
      deps.store.put(objectName, image.data, image.contentType),
      ...variants.map((v) => deps.store.put(variantName(objectName, v.suffix), v.data, v.contentType)),
    ];
    try {
      await Promise.all(puts);
    } catch (err) {
      // Nothing was announced yet. The farmer hears at once that it failed; behind the answer the
      // files that did get stored are removed, then the record (the clean-up retries if MinIO is away).
      request.log.warn({ err, imageId, objectName }, 'photo not stored: MinIO failed');
      void giveUp(imageId, objectName, puts, request.log);
      throw unavailable('PHOTO_STORE_UNAVAILABLE', STORE_DOWN_MESSAGE);
    }
    const api = toApi({ ...record, file_name: fileName });
    const stored = pendingEvent(
      ImageStored,
      {
        image_id: imageId,
        farmer_id: farmerId,
        url: api.url,
        card_url: api.card_url,
        thumb_url: api.thumb_url,
        stored_at: storedAt.toISOString(),
      },
      `image-stored:${imageId}`,
    );
    // Stored and announced in one update: from here on the photo exists for everyone.
    await withDocumentLock(deps.Image, { image_id: imageId }, () =>
      deps.Image.updateOne({ image_id: imageId }, { $set: { stored: true }, $push: { outbox: stored } }),
    );
    await publishRecorded(deps.Image, { image_id: imageId }, deps.bus, request.log);
    request.log.info({ imageId, fileName, objectName, bytes: image.data.length }, 'image stored');
    return reply.code(201).send(api);
  }

  app.get(
    '/api/media/images/:imageId',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Metadata and public URLs of a stored image (a photo no product uses yet: its farmer only)',
        security: [{ bearer: [] }],
        params: Type.Object({ imageId: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: StoredImage, 400: error, 404: error },
      },
    },
    async (request) => {
      const doc = await deps.Image.findOne({ image_id: request.params.imageId, removing: { $ne: true }, stored: { $ne: false } }).lean();
      // An unattached photo is nobody else's business (its address would let them see it).
      if (!doc || (!doc.product_id && doc.farmer_id !== request.identity.userId)) throw notFound('IMAGE_NOT_FOUND', 'No image with this id.');
      return toApi(doc);
    },
  );
}
