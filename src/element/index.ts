/**
 * `gpu-flock/element`: defines the <gpu-flock> custom element (on import) and re-exports the
 * library, so a page that imports this alone has everything. dist/gpu-flock.element.js is this
 * module bundled into one self-contained file for a <script type="module"> tag.
 */
import { defineGpuFlockElement } from './gpu-flock-element';

defineGpuFlockElement();

export { GpuFlockElement, defineGpuFlockElement } from './gpu-flock-element';
export type { StillDetail } from './gpu-flock-element';
export { stillPlan, STILL_BUDGET_MS } from './still';
export type { StillPlan } from './still';
export { ELEMENT_ATTRIBUTES, attributeTable, kebabCase, schemaAttributes } from './attributes';
export type { AttributeTarget, ElementAttribute, SchemaAttribute, SchemaEntry } from './attributes';
export type {
  GpuFlockAttributes,
  GpuFlockReactAttributes,
  Vec3Attribute,
} from './attribute-types.gen';
export type {
  GpuFlockEventMap,
  GpuFlockErrorDetail,
  GpuFlockEventTarget,
  GpuFlockListenerMethod,
} from './events';
export * from '../index';
