// Ambient module types for style imports handled by css-loader (CSS Modules for *.module.css).
declare module '*.module.css' {
  const classes: Readonly<Record<string, string>>;
  export default classes;
}
declare module '*.css';
