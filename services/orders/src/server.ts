import { startService } from '@tuber/kit';
import { buildApp } from './app.js';
import { OrdersConfig } from './config.js';

await startService(OrdersConfig, buildApp);
