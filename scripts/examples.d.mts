export declare const root: string;
export declare const examplesDir: string;
export declare const EXAMPLES: Record<'plain-html' | 'vite-app' | 'esbuild-app', { serve: string }>;
export declare function prepareExamples(log?: (line: string) => void): string;
