export declare const root: string;
export declare const examplesDir: string;
export declare const EXAMPLES: Record<'plain-html' | 'vite-app' | 'esbuild-app', { serve: string }>;
export declare function packLibrary(log?: (line: string) => void): string;
export declare function prepareExamples(log?: (line: string) => void): string;
export declare const FRAMEWORK_TARBALL: string;
export type FrameworkExampleName =
  'react-app' | 'vue-app' | 'svelte-app' | 'next-app' | 'sveltekit-app';
export interface FrameworkExample {
  /** Commands run in the example after `npm ci`: [command, ...args]. */
  build: string[][];
  /** The check that must fail on type-errors/ (React, Vue, Svelte only). */
  wrong?: string[];
  wrongFile?: string;
  serve: { kind: 'static'; dir: string } | { kind: 'next' } | { kind: 'vite-preview' };
}
export declare const FRAMEWORK_EXAMPLES: Record<FrameworkExampleName, FrameworkExample>;
export declare const FRAMEWORK_ENV: NodeJS.ProcessEnv;
export declare function prepareFrameworkExample(
  name: FrameworkExampleName,
  log?: (line: string) => void,
): { installS: number; buildS: number };
export declare function unpinTarball(name: FrameworkExampleName): void;
