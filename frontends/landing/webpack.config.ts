import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { frontEndConfig } from '@tuber/ui/build';
import federation from './module-federation.config.ts';

export default frontEndConfig({
  dir: path.dirname(fileURLToPath(import.meta.url)),
  federation,
  port: Number(process.env.LANDING_PORT ?? 3001),
  title: 'Tuber Market — landing (standalone)',
  publicPath: 'auto',
  // The standalone page is for `npm run dev`; production ships only what the shell loads.
  standalonePageInDevOnly: true,
});
