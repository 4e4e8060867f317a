// The webpack setup every front end shares (shell and remotes differ only in the options below), so each
// package's webpack.config.ts stays a few lines. Node-only: never import this from browser code.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import type { moduleFederationPlugin } from '@module-federation/enhanced';
import webpack, { type Configuration } from 'webpack';
import type { Configuration as DevServerConfiguration } from 'webpack-dev-server';

const uiBuildDir = path.dirname(fileURLToPath(import.meta.url));

export interface FrontEndOptions {
  /** Package folder (the one holding webpack.config.ts). */
  dir: string;
  /** Federation options from the package's module-federation.config.ts. */
  federation: moduleFederationPlugin.ModuleFederationPluginOptions;
  /** Dev-server port. */
  port: number;
  /** <title> of the standalone page. */
  title: string;
  /**
   * "auto" for remotes: chunks load from wherever their manifest was found (/mf/<name>/ behind the gateway,
   * the server root when standalone). "/" for the shell, whose deep links are answered by the SPA fallback.
   */
  publicPath: 'auto' | '/';
  /** Files in <dir>/public are copied to dist as they are (e.g. the shell's remotes.json). */
  publicDir?: boolean;
  /**
   * A remote's own page (src/index.ts booting the remote alone, e.g. with a dev token bar) is for
   * `npm run dev` only: the production build then emits just what hosts load (mf-manifest.json,
   * remoteEntry.js and the exposed chunks), so no standalone page ships in dist or the image.
   */
  standalonePageInDevOnly?: boolean;
  devServer?: DevServerConfiguration;
}

/** Copies <dir>/public into the build output without hashing (remotes.json must keep its name). */
class CopyPublicDirPlugin {
  constructor(private readonly from: string) {}
  apply(compiler: webpack.Compiler) {
    compiler.hooks.thisCompilation.tap('CopyPublicDirPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'CopyPublicDirPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        if (!fs.existsSync(this.from)) return;
        for (const file of fs.readdirSync(this.from, { recursive: true, withFileTypes: true })) {
          if (!file.isFile()) continue;
          const absolute = path.join(file.parentPath, file.name);
          compilation.fileDependencies.add(absolute);
          compilation.emitAsset(path.relative(this.from, absolute), new webpack.sources.RawSource(fs.readFileSync(absolute)));
        }
      });
    });
  }
}

export function frontEndConfig(options: FrontEndOptions) {
  return (_env: unknown, argv: { mode?: Configuration['mode'] }): Configuration => {
    const production = (argv.mode ?? 'production') === 'production';
    const name = options.federation.name ?? path.basename(options.dir);
    const hashed = production ? '.[contenthash:8]' : '';
    const page = !(production && options.standalonePageInDevOnly);

    return {
      mode: production ? 'production' : 'development',
      context: options.dir,
      // Without the page, the federation plugin adds the only entry (remoteEntry).
      entry: page ? { main: './src/index.ts' } : {},
      target: 'web',
      // No source maps in production: neither .map files nor sourceMappingURL comments ship (ADR 0019).
      devtool: production ? false : 'eval-cheap-module-source-map',
      output: {
        path: path.join(options.dir, 'dist'),
        publicPath: options.publicPath,
        // The federation runtime resolves the entry's file name before webpack has its content hash (only the
        // folder matters there), so the hash is added only once it exists.
        filename: production ? (data) => (data.chunk?.contentHash?.javascript ? '[name].[contenthash:8].js' : '[name].js') : '[name].js',
        chunkFilename: `[name]${hashed}.js`,
        assetModuleFilename: `assets/[name]${production ? '.[contenthash:8]' : ''}[ext]`,
        // Several federated builds share one page: keep their webpack runtimes apart.
        uniqueName: name,
        clean: true,
      },
      resolve: {
        extensions: ['.tsx', '.ts', '.js'],
        // Sources import "./x.js" (NodeNext style); the file on disk is x.ts / x.tsx.
        extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
        // Workspace packages resolve to their TypeScript sources.
        conditionNames: ['@tuber/source', '...'],
      },
      module: {
        rules: [
          {
            test: /\.[cm]?tsx?$/,
            exclude: /node_modules/,
            use: {
              loader: 'swc-loader',
              options: {
                jsc: {
                  parser: { syntax: 'typescript', tsx: true },
                  transform: { react: { runtime: 'automatic', development: !production } },
                  target: 'es2020',
                },
              },
            },
          },
          {
            test: /\.css$/,
            use: [
              'style-loader',
              {
                loader: 'css-loader',
                options: {
                  // In production CSS maps would be inlined into the JS chunks as base64.
                  sourceMap: !production,
                  modules: {
                    auto: /\.module\.css$/,
                    namedExport: false,
                    exportLocalsConvention: 'as-is',
                    // The front-end name in every class keeps independently built remotes from colliding.
                    localIdentName: production ? `${name}-[hash:base64:6]` : `${name}__[name]__[local]`,
                  },
                },
              },
            ],
          },
          { test: /\.(svg|png|jpe?g|webp|avif|woff2?)$/, type: 'asset' },
        ],
      },
      plugins: [
        new ModuleFederationPlugin({ dts: false, experiments: { optimization: { target: 'web' } }, ...options.federation }),
        ...(page
          ? [
              new HtmlWebpackPlugin({
                template: path.join(uiBuildDir, 'index.html'),
                title: options.title,
                // Only the app's own entry: remoteEntry is for hosts, not for this page.
                chunks: ['main'],
              }),
            ]
          : []),
        ...(options.publicDir ? [new CopyPublicDirPlugin(path.join(options.dir, 'public'))] : []),
      ],
      optimization: { moduleIds: 'deterministic' },
      performance: { hints: production ? 'warning' : false, maxEntrypointSize: 400_000, maxAssetSize: 400_000 },
      devServer: {
        port: options.port,
        historyApiFallback: true,
        hot: false,
        liveReload: true,
        headers: { 'Access-Control-Allow-Origin': '*' },
        client: { overlay: { errors: true, warnings: false } },
        ...options.devServer,
      },
    };
  };
}
