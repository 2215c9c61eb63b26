/** Why the installed packages do not match package-lock.json, or null when they do. */
export function staleReason(dir?: string): string | null;
