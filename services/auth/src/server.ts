import { startService } from '@tuber/kit';
import { buildApp } from './app.js';
import { AuthConfig } from './config.js';

await startService(AuthConfig, buildApp);
