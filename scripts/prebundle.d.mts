export declare const PREBUNDLED_DEPS: readonly string[];
