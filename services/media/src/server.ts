import { startService } from '@tuber/kit';
import { buildApp } from './app.js';
import { MediaConfig } from './config.js';

await startService(MediaConfig, buildApp);
