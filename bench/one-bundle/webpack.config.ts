// P8's baseline (bench/frontend.bench.ts): the shell and the pages the remotes expose, built as ONE
// bundle without Module Federation, with the same loaders, page template and production settings as the
// federated build (frontEndConfig). `npx webpack -c bench/one-bundle/webpack.config.ts` writes
// .run/tmp/one-bundle/, served like the shell (sirv --single) behind a copy of the gateway.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import webpack from 'webpack';
import { frontEndConfig } from '@tuber/ui/build';

const dir = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(dir, '../..');

export default frontEndConfig({
  dir,
  name: 'one',
  entry: './index.ts',
  outDir: process.env.ONE_BUNDLE_OUT ?? path.join(repo, '.run/tmp/one-bundle'),
  port: 3099,
  title: 'Tuber Market',
  publicPath: '/',
  publicDir: path.join(repo, 'frontends/shell/public'),
  plugins: [
    new webpack.NormalModuleReplacementPlugin(/^\.\/remotes\/RemotePage\.js$/, path.join(dir, 'RemotePage.tsx')),
    // appSession.ts loads the first page through the registry (its prefetch): the bundled page here too.
    new webpack.NormalModuleReplacementPlugin(/^\.\/remotes\/registry\.js$/, path.join(dir, 'registry.ts')),
  ],
});
