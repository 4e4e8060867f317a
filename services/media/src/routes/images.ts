import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { ImageStored, StoredImage } from '@tuber/contracts';
import { badRequest, HttpError, notFound, pendingEvent, publishRecorded, type EventBus, type ServiceApp } from '@tuber/kit';
import { randomUUID } from 'node:crypto';
import { reserveFileName } from '../domain/file-name.js';
import { removeImageFiles } from '../domain/lifecycle.js';
import { inspectAndClean, makeVariants, RejectedImage, variantName } from '../domain/image.js';
import type { ImageModel } from '../domain/images.js';
import type { ImageStore } from '../storage.js';

export interface ImageRouteDeps {
  Image: ImageModel;
  store: ImageStore;
  bus: EventBus;
  maxFileBytes: number;
  maxPixels: number;
}

export function imageRoutes(app: ServiceApp, deps: ImageRouteDeps) {
  const toApi = (doc: { image_id: string; file_name: string; content_type: string; bytes: number; width: number; height: number }) => ({
    image_id: doc.image_id,
    file_name: doc.file_name,
    url: deps.store.publicUrl(doc.file_name),
    card_url: deps.store.publicUrl(variantName(doc.file_name, 'card')),
    thumb_url: deps.store.publicUrl(variantName(doc.file_name, 'thumb')),
    content_type: doc.content_type,
    bytes: doc.bytes,
    width: doc.width,
    height: doc.height,
  });

  async function readUpload(request: FastifyRequest) {
    if (!request.isMultipart()) throw badRequest('Send the photo as multipart/form-data in a field named "file".');
    const part = await request.file({ limits: { fileSize: deps.maxFileBytes, files: 1 } });
    if (!part) throw badRequest('No file was sent. Choose a photo to upload.');
    try {
      return { name: part.filename, bytes: await part.toBuffer() };
    } catch (err) {
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        throw new HttpError(413, `This photo is larger than ${Math.round(deps.maxFileBytes / 1_048_576)} MB. Choose a smaller one.`);
      }
      throw err;
    }
  }

  app.post(
    '/api/media/images',
    {
      onRequest: app.requireRole('farmer'),
      schema: {
        summary: 'Upload one product photo (multipart field "file")',
        consumes: ['multipart/form-data'],
        security: [{ bearer: [] }],
        response: { 201: StoredImage, 400: Type.Ref('ErrorResponse'), 413: Type.Ref('ErrorResponse') },
      },
    },
    async (request, reply) => {
      const upload = await readUpload(request);
      let image;
      try {
        image = await inspectAndClean(upload.bytes, deps.maxPixels);
      } catch (err) {
        if (err instanceof RejectedImage) throw badRequest(err.message);
        throw err;
      }
      const variants = await makeVariants(image.data);
      const imageId = randomUUID();
      const farmerId = request.identity.userId;
      const storedAt = new Date();
      const record = {
        image_id: imageId,
        farmer_id: farmerId,
        content_type: image.contentType,
        bytes: image.data.length,
        width: image.width,
        height: image.height,
        created_at: storedAt,
      };
      const fileName = await reserveFileName(deps.Image, upload.name, storedAt, record);
      try {
        await Promise.all([
          deps.store.put(fileName, image.data, image.contentType),
          ...variants.map((v) => deps.store.put(variantName(fileName, v.suffix), v.data, v.contentType)),
        ]);
      } catch (err) {
        // Nothing was announced yet; give the name back and leave no half-written files behind.
        await removeImageFiles(deps.store, fileName).catch(() => undefined);
        await deps.Image.deleteOne({ image_id: imageId });
        throw err;
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
      await deps.Image.updateOne({ image_id: imageId }, { $push: { outbox: stored } });
      await publishRecorded(deps.Image, { image_id: imageId }, deps.bus, request.log);
      request.log.info({ imageId, fileName, bytes: image.data.length }, 'image stored');
      return reply.code(201).send(api);
    },
  );

  app.get(
    '/api/media/images/:imageId',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Metadata and public URLs of a stored image',
        security: [{ bearer: [] }],
        params: Type.Object({ imageId: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: StoredImage, 404: Type.Ref('ErrorResponse') },
      },
    },
    async (request) => {
      const doc = await deps.Image.findOne({ image_id: request.params.imageId, removing: { $ne: true } }).lean();
      if (!doc) throw notFound('No image with this id.');
      return toApi(doc);
    },
  );
}
