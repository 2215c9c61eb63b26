/** A `doc: '...'` property of a table (one string literal). */
export const DOC_PROPERTY: RegExp;
/** How many `doc` properties the single file drops at least. */
export const MIN_DOCS_DROPPED: number;
/** The plugin that drops them, and the check of the built (minified) file. */
/** The modules of the term and drawing uniform tables (their docs are internal). */
export const INTERNAL_DOC_TABLES: RegExp;
export function docsOutPlugin(files?: RegExp): {
  name: string;
  enforce: 'pre';
  transform(code: string, id: string): { code: string; map: null } | null;
  check(text: string, fileName: string): void;
};
