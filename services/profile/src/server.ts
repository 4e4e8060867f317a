import { startService } from '@tuber/kit';
import { buildApp } from './app.js';
import { ProfileConfig } from './config.js';

await startService(ProfileConfig, buildApp);
