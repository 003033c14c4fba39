/** Fixture files of the Protobuf codec tests (JSON under test/, read from the source tree). */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const fixtureDir = fileURLToPath(new URL('../../../../test/serialization/protobuf/fixtures/', import.meta.url));

export interface KubectlBody {
  readonly name: string;
  readonly command: string;
  /** Base64 of the body kubectl 1.33 sent as application/vnd.kubernetes.protobuf. */
  readonly protobuf: string;
  /** The body kubectl 1.27 sent for the same command as application/json. */
  readonly json: Record<string, unknown>;
}

export function kubectlBodies(): KubectlBody[] {
  return (JSON.parse(readFileSync(`${fixtureDir}kubectl-bodies.json`, 'utf8')) as { bodies: KubectlBody[] }).bodies;
}

/** Objects as upstream 1.32 served them (copied from the shared reference). */
export function goldenObjects(): { file: string; object: Record<string, unknown> }[] {
  const dir = `${fixtureDir}golden-1.32/`;
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, object: JSON.parse(readFileSync(dir + file, 'utf8')) as Record<string, unknown> }));
}

/**
 * The JSON a 1.35 server shows for an object written by older Go code: `creationTimestamp: null`
 * disappears, because 1.35's ObjectMeta marks it omitzero.
 */
export function withoutNullCreationTimestamps(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNullCreationTimestamps);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'creationTimestamp' && v === null) continue;
    out[key] = withoutNullCreationTimestamps(v);
  }
  return out;
}
