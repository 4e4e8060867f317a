import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { frontEndConfig } from '@tuber/ui/build';
import federation from './module-federation.config.ts';

export default frontEndConfig({
  dir: path.dirname(fileURLToPath(import.meta.url)),
  federation,
  port: Number(process.env.BUYER_PORT ?? 3002),
  title: 'Tuber Market — buyer (standalone)',
  publicPath: 'auto',
});
