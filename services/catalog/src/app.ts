import { createServiceApp, useAuth, useEventBus, useMongo, type ServiceApp } from '@tuber/kit';
import type { CatalogConfig } from './config.js';
import { productModel } from './domain/product.js';
import { productRoutes } from './routes/products.js';

export async function buildApp(config: CatalogConfig): Promise<ServiceApp> {
  const app = await createServiceApp({ name: 'catalog', logLevel: config.LOG_LEVEL, description: 'Products and the buyer feed' });
  await useAuth(app, config);
  const mongo = await useMongo(app, config.MONGO_URL);
  await useEventBus(app, config.NATS_URL, 'catalog');
  const Product = productModel(mongo);
  await Product.init();
  productRoutes(app, { Product, pageMax: config.FEED_PAGE_MAX });
  return app;
}
