// The <gpu-flock> element's attribute reading in Node: optionsFromAttributes takes any
// getAttribute/hasAttribute source, so a plain record of attribute texts stands for the element.
import {
  optionsFromAttributes,
  type AttributeMemory,
  type ElementOptions,
} from '../../src/element/attribute-options';

/** One report of an attribute left out: its name, its text and the FlockError that says why. */
export interface AttributeReport {
  attribute: string;
  text: string | null;
  error: unknown;
}

/**
 * Reads `attrs` (attribute name -> text) as a first-time element would (an empty memory): the
 * options read, the reports of the attributes left out, in the order the element reports them,
 * and the memory after the read (last good texts, rejected names).
 */
export function readAttributes(attrs: Record<string, string>): {
  options: ElementOptions;
  reports: AttributeReport[];
  memory: AttributeMemory;
} {
  const memory: AttributeMemory = {
    lastGood: new Map(),
    rejected: new Set(),
    goodDisable: undefined,
  };
  const reports: AttributeReport[] = [];
  const options = optionsFromAttributes(
    { getAttribute: (n) => attrs[n] ?? null, hasAttribute: (n) => n in attrs },
    memory,
    (attribute, text, error) => reports.push({ attribute, text, error }),
  );
  return { options, reports, memory };
}
