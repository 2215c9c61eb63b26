/** A `doc: '...'` property of a table (one string literal). */
export const DOC_PROPERTY: RegExp;
/** How many `doc` properties the single file drops at least. */
export const MIN_DOCS_DROPPED: number;
/** The plugin that drops them, and the check of the built (minified) file. */
export function docsOutPlugin(): {
  name: string;
  enforce: 'pre';
  transform(code: string, id: string): { code: string; map: null } | null;
  check(text: string, fileName: string): void;
};
