/** Shader text minified line by line (same lines; comments and joining spaces out). */
export function squeezeShader(text: string): string;
/** The squeezed shader's code joined between preprocessor directives (same tokens, fewer lines). */
export function flattenShader(text: string): string;
