import path from 'node:path';
import { fileURLToPath } from 'node:url';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import type { Configuration } from 'webpack';
import { frontEndConfig } from '@tuber/ui/build';
import federation from './module-federation.config.ts';

const gateway = process.env.PUBLIC_URL ?? 'http://localhost:8080';

const base = frontEndConfig({
  dir: path.dirname(fileURLToPath(import.meta.url)),
  federation,
  port: Number(process.env.BUYER_PORT ?? 3002),
  title: 'Tuber Market — buyer (standalone)',
  publicPath: 'auto',
  // The standalone page is for `npm run dev`; production ships only what the shell loads.
  standalonePageInDevOnly: true,
  // Alone, the dev server plays the gateway for the API and the product photos.
  devServer: { proxy: [{ context: ['/api', '/auth', '/files'], target: gateway, changeOrigin: true }] },
});

export default (env: unknown, argv: { mode?: Configuration['mode'] }): Configuration => {
  const config = base(env, argv);
  // The standalone page has deep links (/dashboard/buyer/:productId): its <script> must point at the
  // server root, not be relative to the URL. Chunks still find their folder at runtime ("auto"), which
  // is what the shell relies on.
  for (const plugin of config.plugins ?? []) {
    if (plugin instanceof HtmlWebpackPlugin) (plugin as unknown as { options: { publicPath: string } }).options.publicPath = '/';
  }
  // Issue 12: the pages use the contracts' phone helpers (wa.me links). The contracts' other modules build
  // TypeBox schemas when loaded; declared free of side effects, webpack leaves out every module whose exports
  // the bundle does not use, so TypeBox (≈40 kB) stays out of the pages.
  config.module = {
    ...config.module,
    rules: [...(config.module?.rules ?? []), { test: /[\\/]contracts[\\/]src[\\/]/, sideEffects: false }],
  };
  return config;
};
