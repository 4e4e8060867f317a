import multipart from '@fastify/multipart';
import { createServiceApp, useAuth, useMongo, type ServiceApp } from '@tuber/kit';
import type { MediaConfig } from './config.js';
import { imageModel } from './domain/images.js';
import { imageRoutes } from './routes/images.js';
import { minioStore, type ImageStore } from './storage.js';

export async function buildApp(config: MediaConfig, store: ImageStore = minioStore(config)): Promise<ServiceApp> {
  const app = await createServiceApp({ name: 'media', logLevel: config.LOG_LEVEL, description: 'Product photos' });
  await useAuth(app, config);
  const mongo = await useMongo(app, config.MONGO_URL);
  app.readiness.add('minio', () => store.check());
  await app.register(multipart, { limits: { fileSize: config.MEDIA_MAX_FILE_BYTES, files: 1, fields: 10, parts: 20 } });
  const Image = imageModel(mongo);
  await Image.init();
  imageRoutes(app, { Image, store, maxFileBytes: config.MEDIA_MAX_FILE_BYTES, maxPixels: config.MEDIA_MAX_PIXELS });
  return app;
}
