import { startService } from '@tuber/kit';
import { buildApp } from './app.js';
import { NutritionConfig } from './config.js';

await startService(NutritionConfig, buildApp);
