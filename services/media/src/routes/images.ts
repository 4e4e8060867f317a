import { Type } from '@sinclair/typebox';
import { StoredImage } from '@tuber/contracts';
import { badRequest, HttpError, notFound, type ServiceApp } from '@tuber/kit';
import { randomUUID } from 'node:crypto';
import { storageFileName } from '../domain/file-name.js';
import { inspectAndClean, RejectedImage } from '../domain/image.js';
import type { ImageModel } from '../domain/images.js';
import type { ImageStore } from '../storage.js';

export function imageRoutes(app: ServiceApp, deps: { Image: ImageModel; store: ImageStore; maxFileBytes: number; maxPixels: number }) {
  const toApi = (doc: { image_id: string; file_name: string; content_type: string; bytes: number; width: number; height: number }) => ({
    image_id: doc.image_id,
    file_name: doc.file_name,
    url: deps.store.publicUrl(doc.file_name),
    content_type: doc.content_type,
    bytes: doc.bytes,
    width: doc.width,
    height: doc.height,
  });

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
      if (!request.isMultipart()) throw badRequest('Send the photo as multipart/form-data in a field named "file".');
      const part = await request.file({ limits: { fileSize: deps.maxFileBytes, files: 1 } });
      if (!part) throw badRequest('No file was sent. Choose a photo to upload.');
      let bytes: Buffer;
      try {
        bytes = await part.toBuffer();
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new HttpError(413, `This photo is larger than ${Math.round(deps.maxFileBytes / 1_048_576)} MB. Choose a smaller one.`);
        }
        throw err;
      }
      let image;
      try {
        image = await inspectAndClean(bytes, deps.maxPixels);
      } catch (err) {
        if (err instanceof RejectedImage) throw badRequest(err.message);
        throw err;
      }
      const fileName = storageFileName(part.filename);
      await deps.store.put(fileName, image.data, image.contentType);
      const doc = await deps.Image.create({
        image_id: randomUUID(),
        farmer_id: request.identity.userId,
        file_name: fileName,
        content_type: image.contentType,
        bytes: image.data.length,
        width: image.width,
        height: image.height,
        created_at: new Date(),
      });
      request.log.info({ imageId: doc.image_id, fileName, bytes: image.data.length }, 'image stored');
      return reply.code(201).send(toApi(doc));
    },
  );

  app.get(
    '/api/media/images/:imageId',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Metadata and public URL of a stored image',
        security: [{ bearer: [] }],
        params: Type.Object({ imageId: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: StoredImage, 404: Type.Ref('ErrorResponse') },
      },
    },
    async (request) => {
      const doc = await deps.Image.findOne({ image_id: request.params.imageId }).lean();
      if (!doc) throw notFound('No image with this id.');
      return toApi(doc);
    },
  );
}
