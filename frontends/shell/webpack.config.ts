import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { frontEndConfig, type FrontEndOptions } from '@tuber/ui/build';
import { InjectManifest } from 'workbox-webpack-plugin';
import federation from './module-federation.config.ts';

const port = Number(process.env.SHELL_PORT ?? 3000);
const gateway = process.env.PUBLIC_URL ?? 'http://localhost:8080';
// In development the dev server plays the gateway: /mf/<name>/ goes to that remote's own server.
const remotePorts = {
  landing: process.env.LANDING_PORT ?? 3001,
  buyer: process.env.BUYER_PORT ?? 3002,
  farmer: process.env.FARMER_PORT ?? 3003,
  moderation: process.env.MODERATION_UI_PORT ?? 3004,
};

/**
 * The service worker (src/sw/sw.ts, docs/adr/0042-offline.md): built with the page into /sw.js, with the list
 * of the shell's own files to precache. Production only: a worker in the dev server would serve stale code.
 */
function serviceWorker() {
  return new InjectManifest({
    swSrc: './src/sw/sw.ts',
    swDest: 'sw.js',
    // Precompressed copies are the same files; remotes.json is read network first; the check-sso page is
    // Keycloak's business, never served from a cache.
    exclude: [/\.(br|gz)$/, /\.LICENSE\.txt$/, /^remotes\.json$/, /^silent-check-sso\./],
    // Hashed names (scripts and the stylesheet, docs/adr/0047-css-files.md) need no revision of their own.
    dontCacheBustURLsMatching: /\.[0-9a-f]{8}\.(js|css)$/,
  });
}

const shared = (production: boolean): FrontEndOptions => ({
  dir: path.dirname(fileURLToPath(import.meta.url)),
  federation,
  port,
  title: 'Tuber Market',
  publicPath: '/',
  publicDir: true,
  // The remote list is the first thing the entry script asks for (remotes/registry.ts): ask with the page.
  preloadFetches: ['/remotes.json'],
  plugins: production ? [serviceWorker()] : [],
  devServer: {
    proxy: [
      ...Object.entries(remotePorts).map(([name, remotePort]) => ({
        context: [`/mf/${name}/`],
        target: `http://localhost:${remotePort}`,
        pathRewrite: { [`^/mf/${name}`]: '' },
      })),
      { context: ['/api', '/auth', '/files'], target: gateway, changeOrigin: true },
    ],
  },
});

export default (env: unknown, argv: { mode?: 'production' | 'development' | 'none' }) =>
  frontEndConfig(shared((argv.mode ?? 'production') === 'production'))(env, argv);
