// The style sheets board.ts imports for their side effect alone: esbuild bundles them into board.css.
declare module '*.css';
