/** Shader text minified line by line (same lines; comments and joining spaces out). */
export function squeezeShader(text: string): string;
