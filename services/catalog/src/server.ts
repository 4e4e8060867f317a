import { startService } from '@tuber/kit';
import { buildApp } from './app.js';
import { CatalogConfig } from './config.js';

await startService(CatalogConfig, buildApp);
