import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { frontEndConfig } from '@tuber/ui/build';
import federation from './module-federation.config.ts';

export default frontEndConfig({
  dir: path.dirname(fileURLToPath(import.meta.url)),
  federation,
  port: Number(process.env.FARMER_PORT ?? 3003),
  title: 'Tuber Market — farmer (standalone)',
  publicPath: 'auto',
});
