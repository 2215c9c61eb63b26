// The single file's build drops the tables' `doc` descriptions (build-lib.mjs, issue 30 item 4:
// "docstrings kept as strings"). A Vite (Rollup) plugin, with a check of the built file.

const LITERAL = String.raw`(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")`;
/**
 * A `doc: '...'` property of a table (one string literal): a line of its own goes whole, one
 * among others on a line goes with its comma and the spaces after it.
 */
export const DOC_PROPERTY = new RegExp(
  String.raw`^[ \t]*doc: ${LITERAL},?[ \t]*\n|\bdoc: ${LITERAL},?[ \t]*`,
  'gm',
);
/** How many `doc` properties the single file drops at least (fewer: DOC_PROPERTY stopped matching). */
export const MIN_DOCS_DROPPED = 90;
/**
 * The tables whose docs only the generated shaders' comments read (the term uniforms and the
 * drawing uniforms; neither is exported): the package's modules drop them too.
 */
export const INTERNAL_DOC_TABLES = /[\\/]src[\\/]core[\\/](?:terms|look-uniforms)\.ts$/;
/** The one read of a `doc` the single file keeps, minified: a generated shader's optional comment. */
const OPTIONAL_DOC = /\$\{(\w+)\.doc\?`[^`]*\$\{\1\.doc\}`:""\}/g;

/**
 * The one-line descriptions (`doc`) of the parameter, view, term and uniform tables are for the
 * docs, the demo's GUI, the attribute table and the API's PARAM_SCHEMA; the single file exports
 * none of those (createFlock, FlockError and the element only), so its build drops them (1.7 kB
 * gzip); the generated shaders' comments, which name a uniform's doc where it has one, lose them.
 * dist/index.js keeps those of the public tables (PARAM_SCHEMA, VIEW_SCHEMA, the element's
 * attributes) and drops the rest: `docsOutPlugin(INTERNAL_DOC_TABLES)`. `check` (on the minified
 * single file) fails the build when fewer than MIN_DOCS_DROPPED were dropped, or when the file
 * reads a `doc` in any other way than OPTIONAL_DOC.
 * @param {RegExp} [files]  the modules whose docs go (default: every module of src/ but the demo's)
 */
export function docsOutPlugin(files = /[\\/]src[\\/](?!app[\\/]|bench[\\/]).*\.ts$/) {
  let dropped = 0;
  return {
    name: 'gpu-flock-docs-out',
    enforce: 'pre',
    transform(code, id) {
      if (!files.test(id)) return null;
      const out = code.replace(DOC_PROPERTY, () => {
        dropped++;
        return '';
      });
      return out === code ? null : { code: out, map: null };
    },
    check(text, fileName) {
      if (dropped < MIN_DOCS_DROPPED) {
        throw new Error(
          `${fileName}: only ${dropped} doc properties dropped (DOC_PROPERTY no longer matches?)`,
        );
      }
      const read = /.{0,40}(?:\.doc\b|[{,]doc[,}:]).{0,40}/.exec(text.replace(OPTIONAL_DOC, ''));
      if (read) throw new Error(`${fileName} reads a dropped doc: ${read[0]}`);
    },
  };
}
