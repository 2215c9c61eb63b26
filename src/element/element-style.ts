/**
 * The <gpu-flock> element's shadow-root stylesheet: sized like a replaced element (300x150
 * unless styled), the stage and the debug layer filling it. A constructed stylesheet, so a strict
 * CSP without 'unsafe-inline' styles is fine.
 */

const CSS = `
:host { display: block; position: relative; width: 300px; height: 150px; overflow: hidden; }
:host([hidden]) { display: none; }
.stage { position: absolute; inset: 0; }
.gpu-flock-debug { position: absolute; inset: 0; width: 100%; height: 100%; pointer-events: none; }
.gpu-flock-debug[hidden] { display: none; }
`;

let sheet: CSSStyleSheet | null = null;

/** The one stylesheet every element adopts; null without constructable stylesheets (very old browsers). */
export function styleSheet(): CSSStyleSheet | null {
  if (sheet) return sheet;
  try {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
  } catch {
    sheet = null;
  }
  return sheet;
}
