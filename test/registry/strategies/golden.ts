/** Reads the upstream golden objects (objects as a 1.32 server stored them after defaulting). */
import { readFileSync } from 'node:fs';
import type { KubeObject } from '../../../src/registry/object.js';
import { referenceDir } from '../../reference-files.js';

const GOLDEN_DIR = `${referenceDir}golden-1.32`;

export function golden(name: string): KubeObject {
  return JSON.parse(readFileSync(`${GOLDEN_DIR}/object-${name}.json`, 'utf8')) as KubeObject;
}

/**
 * Removes `creationTimestamp: null` from embedded templates: 1.33+ servers no longer serialize a
 * zero timestamp (upstream PR 130989), so a 1.35 object has none.
 */
export function withoutNullTimestamps(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNullTimestamps);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'creationTimestamp' && v === null) continue;
    out[key] = withoutNullTimestamps(v);
  }
  return out;
}
