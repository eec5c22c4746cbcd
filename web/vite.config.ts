// The web app's build (D13): one hashed chunk per screen (React.lazy), written to dist/web, which
// the `serve` process serves. No dev-server-only behaviour is relied on in production.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    target: 'es2022',
    // No inline <script>: the CSP allows scripts from this origin only.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    rolldownOptions: {
      // React libraries mark modules "use client" for server components; meaningless in a SPA.
      onwarn(w, warn) {
        if (w.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(w);
      },
    },
  },
  oxc: { jsx: { runtime: 'automatic' } },
});
