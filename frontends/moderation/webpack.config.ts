import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { frontEndConfig } from '@tuber/ui/build';
import federation from './module-federation.config.ts';

const gateway = process.env.PUBLIC_URL ?? 'http://localhost:8080';

export default frontEndConfig({
  dir: path.dirname(fileURLToPath(import.meta.url)),
  federation,
  port: Number(process.env.MODERATION_UI_PORT ?? 3004),
  title: 'Tuber Market — moderation desk (standalone)',
  publicPath: 'auto',
  // The standalone page is for `npm run dev`; production ships only what the shell loads.
  standalonePageInDevOnly: true,
  devServer: { proxy: [{ context: ['/api', '/auth', '/files'], target: gateway, changeOrigin: true }] },
});
