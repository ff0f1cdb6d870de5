import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const serverOrigin = process.env.PORTAL_SERVER ?? 'http://localhost:8080';
const proxied = ['/api', '/oidc', '/interaction', '/identity', '/entity-verification'];

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: serverOrigin, changeOrigin: false }])),
  },
  build: { target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 600 },
});
