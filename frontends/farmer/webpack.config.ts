import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Configuration } from 'webpack';
import { frontEndConfig } from '@tuber/ui/build';
import federation from './module-federation.config.ts';

const gateway = process.env.PUBLIC_URL ?? 'http://localhost:8080';

const config = frontEndConfig({
  dir: path.dirname(fileURLToPath(import.meta.url)),
  federation,
  port: Number(process.env.FARMER_PORT ?? 3003),
  title: 'Tuber Market — farmer (standalone)',
  publicPath: 'auto',
  // The standalone page is for `npm run dev`; production ships only what the shell loads.
  standalonePageInDevOnly: true,
  // Alone, the dev server plays the gateway for the API and the product photos.
  devServer: { proxy: [{ context: ['/api', '/auth', '/files'], target: gateway, changeOrigin: true }] },
});

// The inbox uses two functions of @tuber/contracts at run time (whatsAppLink, displayPhone). Its modules only
// declare schemas and constants, so webpack may leave out the ones not used: without this, importing the
// phone helpers shipped every API schema and TypeBox (~55 KB minified) to the browser.
const contractsSource = /[\\/]contracts[\\/]src[\\/]/;
export default (env: unknown, argv: { mode?: Configuration['mode'] }): Configuration => {
  const built = config(env, argv);
  return { ...built, module: { ...built.module, rules: [...(built.module?.rules ?? []), { test: contractsSource, sideEffects: false }] } };
};
