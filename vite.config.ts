import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import optimizeLocales from '@react-aria/optimize-locales-plugin';

const serverOrigin = process.env.PORTAL_SERVER ?? 'http://localhost:8080';
const proxied = ['/api', '/oidc', '/interaction', '/identity', '/entity-verification'];

export default defineConfig({
  // The portal is English only: react-aria's strings for its other 30+ locales stay out of the bundle.
  plugins: [react(), { ...optimizeLocales.vite({ locales: ['en-US'] }), enforce: 'pre' }],
  server: {
    port: 5173,
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: serverOrigin, changeOrigin: false }])),
  },
  build: { target: 'es2022', sourcemap: 'hidden', chunkSizeWarningLimit: 600 },
});
