// esbuild bundles the imported stylesheet into dist/webview.css.
declare module '*.css';
