export declare const CHROMIUM_ARGS: string[];
export declare function systemChromiumPaths(
  platform: string,
  env: Record<string, string | undefined>,
): string[];
export interface FindChromiumDeps {
  env?: Record<string, string | undefined>;
  platform?: string;
  exists?: (path: string) => boolean;
  playwrightPath?: () => string | null;
}
export declare function findChromium(deps?: FindChromiumDeps): string | null;
