// The webpack setup every front end shares (shell and remotes differ only in the options below), so each
// package's webpack.config.ts stays a few lines. Node-only: never import this from browser code.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import CompressionPlugin from 'compression-webpack-plugin';
import CssMinimizerPlugin from 'css-minimizer-webpack-plugin';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import type { moduleFederationPlugin } from '@module-federation/enhanced';
import webpack, { type Configuration } from 'webpack';
import type { Configuration as DevServerConfiguration } from 'webpack-dev-server';
import { CATALOGUE_FILE } from './messages-loader.js';

const uiBuildDir = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/**
 * react-router ships a production build next to the development one, but its package exports name only
 * the development build (warnings and checks included); production bundles use the other (docs/adr/0025).
 */
function reactRouterProductionAliases(): Record<string, string> {
  const production = path.join(path.dirname(require.resolve('react-router')), '..', 'production');
  return { 'react-router$': path.join(production, 'index.mjs'), 'react-router/dom$': path.join(production, 'dom-export.mjs') };
}

/**
 * Production bundles carry no ICU message parser (docs/adr/0046-precompiled-messages.md): every catalogue is
 * compiled to ASTs at build time (messages-loader.ts), so intl-messageformat's import of the parser is
 * pointed at the parser package's own no-parser build (the AST helpers and type guards the formatter
 * needs, and a parse() that throws). The parser and the number/date skeleton parser drop out. Resolved from
 * where intl-messageformat is, so it is the copy intl-messageformat would import. That package is ES
 * modules only (no lib/ or CommonJS build to alias as well); `$` keeps deep imports (e.g. the printer) as
 * they are.
 */
function noMessageParserAlias(): Record<string, string> {
  const fromFormatter = createRequire(require.resolve('intl-messageformat'));
  return { '@formatjs/icu-messageformat-parser$': fromFormatter.resolve('@formatjs/icu-messageformat-parser/no-parser.js') };
}

export interface FrontEndOptions {
  /** Package folder (the one holding webpack.config.ts). */
  dir: string;
  /**
   * Federation options from the package's module-federation.config.ts. Left out only by the benchmark's
   * one-bundle baseline (bench/one-bundle), which builds the same pages without Module Federation.
   */
  federation?: moduleFederationPlugin.ModuleFederationPluginOptions;
  /** Build name (CSS class prefix, webpack uniqueName) when there is no federation name. */
  name?: string;
  /** The page's entry module, relative to `dir` (default ./src/index.ts). */
  entry?: string;
  /** Output folder (default <dir>/dist). */
  outDir?: string;
  /** More webpack plugins (the baseline swaps the shell's remote slot for direct imports). */
  plugins?: webpack.WebpackPluginInstance[];
  /** Dev-server port. */
  port: number;
  /** <title> of the standalone page. */
  title: string;
  /**
   * "auto" for remotes: chunks load from wherever their manifest was found (/mf/<name>/ behind the gateway,
   * the server root when standalone). "/" for the shell, whose deep links are answered by the SPA fallback.
   */
  publicPath: 'auto' | '/';
  /** Files in <dir>/public (or in the folder named) are copied to dist as they are (e.g. the shell's remotes.json). */
  publicDir?: boolean | string;
  /**
   * A remote's own page (src/index.ts booting the remote alone, e.g. with a dev token bar) is for
   * `npm run dev` only: the production build then emits just what hosts load (mf-manifest.json,
   * remoteEntry.js and the exposed chunks), so no standalone page ships in dist or the image.
   */
  standalonePageInDevOnly?: boolean;
  /**
   * Same-origin URLs the page's first script will fetch at once (the shell's /remotes.json): the page asks for
   * them while that script downloads (`<link rel="preload" as="fetch">`), so its first round trip is already
   * done when the script runs. The script's fetch must use the default cache mode to be matched.
   */
  preloadFetches?: string[];
  devServer?: DevServerConfiguration;
}

/**
 * What of the federation runtime a build carries. A remote (it exposes pages and loads no remotes of its
 * own) leaves out the code for loading remotes and reading their manifests (snapshots): its
 * remoteEntry.js shrinks by about a third, and each page pays that much less for the remote's
 * copy of the runtime (docs/adr/0025). The shell keeps all of it.
 */
function federationExperiments(federation: moduleFederationPlugin.ModuleFederationPluginOptions) {
  const remote = Boolean(federation.exposes && Object.keys(federation.exposes).length > 0);
  const loadsRemotes = federation.remotes !== undefined && Object.keys(federation.remotes).length > 0;
  return {
    optimization: { target: 'web' as const, ...(remote && !loadsRemotes ? { disableRemote: true, disableSnapshot: true } : {}) },
  };
}

/** The global through which the shell hands its runtime core to the remotes (set by one-federation-runtime.ts). */
const RUNTIME_CORE_GLOBAL = '_FEDERATION_RUNTIME_CORE';

/**
 * ONE federation runtime on the page (ADR 0045): in production a remote takes the runtime core from the
 * global the shell's runtime plugin (one-federation-runtime.ts) sets, instead of bundling its own copy; the
 * shell gets that plugin. (What the remote's own container code still takes from the federation SDK is two
 * small helpers, left in it by tree shaking.) In development a remote also runs alone (its
 * standalone page), so there every build keeps its own copy.
 */
function oneRuntime(federation: moduleFederationPlugin.ModuleFederationPluginOptions, production: boolean) {
  const remote = Boolean(federation.exposes && Object.keys(federation.exposes).length > 0);
  if (!production) return { runtimePlugins: [], plugins: [] };
  if (!remote) return { runtimePlugins: [path.join(uiBuildDir, 'one-federation-runtime.ts')], plugins: [] };
  return {
    runtimePlugins: [],
    plugins: [new webpack.ExternalsPlugin('global', { '@module-federation/runtime-core': RUNTIME_CORE_GLOBAL })],
  };
}

/**
 * Production CSS as files (docs/adr/0047-css-files.md). Names are content-hashed like the scripts' (served
 * immutable, kept cache first by the service worker). The entry's file is linked in the page's <head> by
 * HtmlWebpackPlugin.
 *
 * A remote keeps files per chunk: the plugin's runtime in its remoteEntry.js loads a page's files with the
 * page's chunks, and the remote's fallback copy of @tuber/ui (global.css included) stays in a file no one
 * loads while the shell provides @tuber/ui. The host (the shell) puts all its CSS in one file with the
 * entry: its first render waits for its bootstrap chunk anyway, so that chunk's CSS costs nothing in the
 * <head> (fetched beside main.js), and no CSS is left to load at run time: the shell needs no loader
 * runtime. In the file the modules keep the order they run in: @tuber/ui's global.css first.
 */
function cssFiles(
  options: FrontEndOptions,
  production: boolean,
): { plugins: webpack.WebpackPluginInstance[]; splitChunks: NonNullable<Configuration['optimization']>['splitChunks'] } {
  if (!production) return { plugins: [], splitChunks: undefined };
  const federation = options.federation;
  const host = Boolean(federation && !(federation.exposes && Object.keys(federation.exposes).length > 0));
  return {
    plugins: [
      new MiniCssExtractPlugin({
        filename: '[name].[contenthash:8].css',
        chunkFilename: '[name].[contenthash:8].css',
        ...(host ? { runtime: false } : {}),
      }),
    ],
    // Only the CSS parts of modules (type css/mini-extract) move; their scripts (class-name maps) stay in
    // their chunks.
    splitChunks: {
      cacheGroups: host
        ? { styles: { name: 'styles', type: 'css/mini-extract', chunks: 'all' as const, enforce: true } }
        : {
            // A stylesheet two pages import (the landing's forms, the buyer's contact dialog, the farmer's
            // product list) goes to one file of its own, loaded before the pages' files. Copied into each
            // page's file instead, it would be downloaded again with each page, and appended again after
            // the first page's own rules, which an override there would then lose to.
            sharedCss: { type: 'css/mini-extract', chunks: 'async' as const, minChunks: 2, minSize: 0, enforce: true },
          },
    },
  };
}

/** Copies <dir>/public into the build output without hashing (remotes.json must keep its name). */
class CopyPublicDirPlugin {
  constructor(private readonly from: string) {}
  apply(compiler: webpack.Compiler) {
    compiler.hooks.thisCompilation.tap('CopyPublicDirPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'CopyPublicDirPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          if (!fs.existsSync(this.from)) return;
          for (const file of fs.readdirSync(this.from, { recursive: true, withFileTypes: true })) {
            if (!file.isFile()) continue;
            const absolute = path.join(file.parentPath, file.name);
            compilation.fileDependencies.add(absolute);
            compilation.emitAsset(path.relative(this.from, absolute), new webpack.sources.RawSource(fs.readFileSync(absolute)));
          }
        },
      );
    });
  }
}

export function frontEndConfig(options: FrontEndOptions) {
  return (_env: unknown, argv: { mode?: Configuration['mode'] }): Configuration => {
    const production = (argv.mode ?? 'production') === 'production';
    const runtime = options.federation ? oneRuntime(options.federation, production) : { runtimePlugins: [], plugins: [] };
    const name = options.federation?.name ?? options.name ?? path.basename(options.dir);
    const hashed = production ? '.[contenthash:8]' : '';
    const page = !(production && options.standalonePageInDevOnly);
    const css = cssFiles(options, production);

    return {
      mode: production ? 'production' : 'development',
      context: options.dir,
      // Without the page, the federation plugin adds the only entry (remoteEntry).
      entry: page ? { main: options.entry ?? './src/index.ts' } : {},
      target: 'web',
      // No source maps in production: neither .map files nor sourceMappingURL comments ship (ADR 0019).
      devtool: production ? false : 'eval-cheap-module-source-map',
      output: {
        path: options.outDir ?? path.join(options.dir, 'dist'),
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
        alias: production ? { ...reactRouterProductionAliases(), ...noMessageParserAlias() } : {},
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
              // Production: the CSS goes to content-hashed .css files (docs/adr/0047-css-files.md), parsed by
              // the browser as CSS instead of shipped as strings in the scripts and inserted by style-loader
              // at start-up. Development keeps style-loader: an edit restyles the page without a reload.
              production ? MiniCssExtractPlugin.loader : 'style-loader',
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
          // The catalogues (src/i18n/<language>.json, not review.json) of this and any other front end in
          // the build become ASTs; in development too, so both modes run the same messages.
          { test: CATALOGUE_FILE, exclude: /node_modules/, use: path.join(uiBuildDir, 'messages-loader.cjs') },
          { test: /\.(svg|png|jpe?g|webp|avif|woff2?)$/, type: 'asset' },
        ],
      },
      plugins: [
        ...(options.federation
          ? [
              new ModuleFederationPlugin({
                dts: false,
                // The shell provides every shared singleton from its first script: take what is loaded.
                // ("version-first" would fetch every registered remote's remoteEntry.js to compare
                // versions the first time a remote page loads, docs/adr/0025.)
                shareStrategy: 'loaded-first',
                experiments: federationExperiments(options.federation),
                ...options.federation,
                runtimePlugins: [...runtime.runtimePlugins, ...(options.federation.runtimePlugins ?? [])],
              }),
              ...runtime.plugins,
            ]
          : []),
        ...(page
          ? [
              new HtmlWebpackPlugin({
                template: path.join(uiBuildDir, 'index.html'),
                title: options.title,
                // Only the app's own entry: remoteEntry is for hosts, not for this page.
                chunks: ['main'],
                preloadFetches: options.preloadFetches ?? [],
              }),
            ]
          : []),
        ...css.plugins,
        ...(options.publicDir
          ? [new CopyPublicDirPlugin(typeof options.publicDir === 'string' ? options.publicDir : path.join(options.dir, 'public'))]
          : []),
        ...(options.plugins ?? []),
        // Precompressed copies next to each script, page and manifest (brotli at its best level, gzip for
        // older clients): the servers send them as they are (sirv --brotli --gzip, nginx gzip_static)
        // instead of compressing on the fly at a lower level. About 15 % less JavaScript over the wire
        // than the gateway's gzip level 5 (docs/adr/0025).
        ...(production
          ? [
              new CompressionPlugin<zlib.BrotliOptions>({
                filename: '[path][base].br',
                algorithm: 'brotliCompress',
                test: /\.(js|json|html|css|svg)$/,
                compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY } },
                threshold: 1024,
                minRatio: 0.9,
              }),
              new CompressionPlugin({
                filename: '[path][base].gz',
                algorithm: 'gzip',
                test: /\.(js|json|html|css|svg)$/,
                compressionOptions: { level: zlib.constants.Z_BEST_COMPRESSION },
                threshold: 1024,
                minRatio: 0.9,
              }),
            ]
          : []),
      ],
      optimization: {
        moduleIds: 'deterministic',
        ...(css.splitChunks ? { splitChunks: css.splitChunks } : {}),
        // Production CSS minified like the scripts ('...' keeps webpack's own script minifier): lightningcss
        // removes the comments and whitespace and shortens values; no targets, so no syntax is rewritten.
        ...(production ? { minimizer: ['...', new CssMinimizerPlugin({ minify: CssMinimizerPlugin.lightningCssMinify })] } : {}),
      },
      // Raw sizes, a tripwire for a dependency pulled in by mistake; the budgets that matter are issue 13's in gzip
      // (bench P8). The shell's main.js is ~415 KB raw since it carries its bootstrap (docs/adr/0051).
      performance: { hints: production ? 'warning' : false, maxEntrypointSize: 450_000, maxAssetSize: 450_000 },
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
