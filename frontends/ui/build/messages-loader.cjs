// Webpack loads a loader from a "type": "module" package with import(), which on Node 20 cannot read
// TypeScript. This CommonJS entry makes webpack require() it instead, through the TypeScript require hook
// webpack-cli installed to read the webpack.config.ts files (the same one that loaded build/webpack.ts).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS file on purpose (above)
module.exports = require('./messages-loader.ts');
