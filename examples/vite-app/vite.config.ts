// Two pages: index.html (the hero) and flock.html (create-vite's page with the README's bundler
// snippet as its src/main.ts, here src/flock.ts).
import { defineConfig } from 'vite';

export default defineConfig({
  build: { rollupOptions: { input: ['index.html', 'flock.html'] } },
});
