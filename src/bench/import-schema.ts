/**
 * The schema an imported results file (another device's JSON export, report.ts BenchExport) is
 * checked against, whole, before the page keeps any of it: every field the page reads (the
 * charts, the capacity bars, the imported list, the device label) with its type. Fields the page
 * does not read may be anything (an export of a later version still imports); a file that fails
 * is rejected with the first wrong field named, and nothing of it is kept.
 *
 * Valibot (https://valibot.dev): a schema library of small functions that tree-shake, so the
 * page carries only the checks used here (a few kB), with issue paths that name the field.
 */
import * as v from 'valibot';
import { BACKEND_LADDER } from '../backend';

const num = v.pipe(v.number(), v.finite());
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const backend = v.picklist(BACKEND_LADDER);
const optString = v.optional(v.string());

/** A skipped row: the page reads its label, backend and count (the `skipped` text is shown). */
const SkippedRowSchema = v.looseObject({
  label: v.string(),
  backend,
  count,
  skipped: v.string(),
});

/** A measured row: what the scaling line, the stacked bar and the N choices read. */
const MeasuredRowSchema = v.looseObject({
  label: v.string(),
  backend,
  mode: v.string(),
  count,
  stepMs: num,
  timing: v.string(),
  passes: v.record(v.string(), v.nullable(num)),
  drawMs: v.optional(v.nullable(num)),
  behaviours: v.optional(v.string()),
});

/** A row is skipped when it has a `skipped` field (rows.ts isMeasured), else measured. */
const RowSchema = v.lazy((row: unknown) =>
  typeof row === 'object' && row !== null && 'skipped' in row
    ? SkippedRowSchema
    : MeasuredRowSchema,
);

const CapacityResultSchema = v.looseObject({
  fps: num,
  count,
  steps: v.optional(num),
  frameMs: v.optional(v.nullable(num)),
  failsAt: v.optional(v.nullable(count)),
  bounded: v.optional(v.boolean()),
});

const CapacitySchema = v.looseObject({
  backend,
  available: v.boolean(),
  device: optString,
  reason: optString,
  results: v.array(CapacityResultSchema),
});

/** The device report as deviceLabel reads it (names of the GPU and the cores). */
const DeviceSchema = v.nullable(
  v.looseObject({
    hardwareConcurrency: v.optional(num),
    webgl2: v.optional(v.looseObject({ renderer: optString, unmaskedRenderer: optString })),
    webgpu: v.optional(
      v.looseObject({
        info: v.optional(v.record(v.string(), v.union([v.string(), v.boolean()]))),
      }),
    ),
  }),
);

/** The whole file. */
export const ImportSchema = v.looseObject({
  tool: v.literal('gpu-flock bench'),
  label: optString,
  device: v.optional(DeviceSchema),
  rows: v.array(RowSchema),
  capacity: v.optional(v.array(CapacitySchema)),
  capacitySentence: optString,
});

/** What a value is, in words: "null", "a number (5)", "an array", 'a string ("x")'. */
function what(x: unknown): string {
  if (x === null) return 'null';
  if (x === undefined) return 'missing';
  if (Array.isArray(x)) return 'an array';
  if (typeof x === 'number') return `a number (${x})`;
  if (typeof x === 'string') return `a string (${JSON.stringify(x.slice(0, 40))})`;
  return `${typeof x === 'object' ? 'an' : 'a'} ${typeof x}`;
}

/**
 * Checks `data` against ImportSchema.
 * @returns null when it passes, else the first wrong field in words: 'rows[0]: expected Object,
 *   got null', 'rows[2].stepMs: missing'.
 */
export function importProblem(data: unknown): string | null {
  const r = v.safeParse(ImportSchema, data, { abortEarly: true });
  if (r.success) return null;
  const issue = deepest(r.issues[0]);
  const path = (issue.path ?? [])
    .map((p) => (typeof p.key === 'number' ? `[${p.key}]` : `.${String(p.key)}`))
    .join('')
    .replace(/^\./, '');
  const got = issue.path?.length ? issue.path[issue.path.length - 1]!.value : data;
  if (got === undefined) return `${path}: missing`;
  return `${path || 'the file'}: expected ${issue.expected ?? 'another value'}, got ${what(got)}`;
}

type Issue = v.BaseIssue<unknown>;
/** A union's issue holds its options' issues: the one that went deepest names the field. */
function deepest(issue: Issue): Issue {
  let best = issue;
  for (const sub of issue.issues ?? []) {
    const d = deepest(sub);
    if ((d.path?.length ?? 0) > (best.path?.length ?? 0)) best = d;
  }
  return best;
}
