import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = `http://localhost:${process.env.PORT ?? 3000}`;

export default defineConfig({
  plugins: [
    tanstackRouter({ target: 'react', autoCodeSplitting: true, routesDirectory: 'src/routes', generatedRouteTree: 'src/routeTree.gen.ts' }),
    react(),
    tailwindcss(),
  ],
  build: { outDir: 'dist', sourcemap: true, emptyOutDir: true },
  server: {
    port: 5173,
    proxy: {
      '/trpc': api,
      '/media': api,
      '/uploads': api,
      '/admin': api,
      '/healthz': api,
      '/readyz': api,
      '/socket.io': { target: api, ws: true },
    },
  },
});
