import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { frontEndConfig } from '@tuber/ui/build';
import federation from './module-federation.config.ts';

const port = Number(process.env.SHELL_PORT ?? 3000);
const gateway = process.env.PUBLIC_URL ?? 'http://localhost:8080';
// In development the dev server plays the gateway: /mf/<name>/ goes to that remote's own server.
const remotePorts = {
  landing: process.env.LANDING_PORT ?? 3001,
  buyer: process.env.BUYER_PORT ?? 3002,
  farmer: process.env.FARMER_PORT ?? 3003,
};

export default frontEndConfig({
  dir: path.dirname(fileURLToPath(import.meta.url)),
  federation,
  port,
  title: 'Tuber Market',
  publicPath: '/',
  publicDir: true,
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
