import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

// https://vite.dev/config/
export default defineConfig({
  // readme:start
  plugins: [
    vue({ template: { compilerOptions: { isCustomElement: (tag) => tag === 'gpu-flock' } } }),
  ],
  // readme:end
});
