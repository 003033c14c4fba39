/**
 * The ABAC policy file (--authorization-policy-file): one Policy per line, as upstream reads it.
 * A line is either an `abac.authorization.kubernetes.io/v1beta1` Policy (`{"apiVersion": ...,
 * "kind": "Policy", "spec": {...}}`) or an unversioned (v0) one (`{"user": "alice", ...}`), which is
 * converted with v0's wider defaults. Blank lines and lines starting with `#` are skipped, but still
 * counted, so that an error names the line an editor shows.
 *
 * Upstream tries each line first as a versioned object; only a line whose apiVersion or kind is
 * missing (or names no type it knows) is then read as v0. Its errors are worded as upstream's, with
 * the line number and the line itself.
 */
import { readFileSync } from 'node:fs';
import { goQuote } from '../../serialization/go-format.js';
import { cannotUnmarshalField, goJsonType } from '../../serialization/go-json-errors.js';
import { decodeJsonOrYaml, DocumentSyntaxError } from '../../serialization/json-or-yaml.js';
import { readTypeMeta } from '../../serialization/type-meta.js';

/** One rule, after conversion: what upstream's internal abac.PolicySpec holds. */
export interface AbacPolicySpec {
  readonly user: string;
  readonly group: string;
  readonly readonly: boolean;
  readonly apiGroup: string;
  readonly resource: string;
  readonly namespace: string;
  readonly nonResourcePath: string;
}

/** The policies of a file, in order, and whether any line was unversioned (upstream then warns). */
export interface AbacPolicyFile {
  readonly policies: readonly AbacPolicySpec[];
  readonly unversionedLines: number;
}

export const ABAC_GROUP = 'abac.authorization.kubernetes.io';
const V1BETA1 = `${ABAC_GROUP}/v1beta1`;
const V0 = `${ABAC_GROUP}/v0`;
const ALL_AUTHENTICATED = 'system:authenticated';
/** bufio.Scanner's default token limit: upstream cannot read a longer line. */
const MAX_LINE_BYTES = 64 * 1024;
/** The struct upstream reads apiVersion and kind into, as Go prints its type. */

/** A line's decoding failure; the message is upstream's error for that line. */
class LineError extends Error {}

/**
 * Reads and converts the policy file. Throws an Error worded as upstream's (`error reading policy
 * file <path>, line <n>: <line>: <reason>`, or `open <path>: no such file or directory`).
 */
export function readAbacPolicyFile(path: string): AbacPolicyFile {
  const text = readPolicyText(path);
  const policies: AbacPolicySpec[] = [];
  let unversionedLines = 0;
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const [index, raw] of lines.entries()) {
    // bufio.Scanner stops at a line it cannot hold: the lines before it have been read.
    if (Buffer.byteLength(raw) >= MAX_LINE_BYTES) throw new Error(`error reading policy file ${path}: bufio.Scanner: token too long`);
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    try {
      const decoded = decodePolicyLine(line);
      policies.push(decoded.spec);
      if (decoded.unversioned) unversionedLines++;
    } catch (err) {
      if (!(err instanceof LineError)) throw err;
      throw new Error(`error reading policy file ${path}, line ${index + 1}: ${line}: ${err.message}`);
    }
  }
  return { policies, unversionedLines };
}

/** The file's text, or Go's os.Open / read error for it. */
function readPolicyText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new Error(`open ${path}: no such file or directory`);
    if (code === 'EACCES') throw new Error(`open ${path}: permission denied`);
    if (code === 'EISDIR') throw new Error(`error reading policy file ${path}: read ${path}: is a directory`);
    throw err;
  }
}

/**
 * One non-blank line as a policy. Throws {@link LineError} with upstream's reason. Exported for
 * the tests of the conversion rules.
 */
export function decodePolicyLine(line: string): { spec: AbacPolicySpec; unversioned: boolean } {
  const doc = parseLine(line);
  const { apiVersion, kind } = typeMetaOf(doc);
  if (apiVersion === V1BETA1 && kind === 'Policy') return { spec: fromV1beta1(doc), unversioned: false };
  if (apiVersion === V0 && kind === 'Policy') return { spec: fromV0(doc), unversioned: false };
  // Upstream's fallback: read the line as v0, its missing apiVersion and kind filled in from v0.
  const version = apiVersion === '' ? V0 : apiVersion;
  const fallbackKind = kind === '' ? 'Policy' : kind;
  if (version === V0 && fallbackKind === 'Policy') return { spec: fromV0(doc), unversioned: true };
  if (version === V1BETA1 && fallbackKind === 'Policy') throw new LineError('converting (v1beta1.Policy) to (v0.Policy): unknown conversion');
  throw new LineError(`no kind ${goQuote(fallbackKind)} is registered for version ${goQuote(version)} in scheme "pkg/apis/abac/register.go"`);
}

/** A line as JSON or, as upstream's decoder also reads it (`user: alice` is a v0 policy), YAML. */
function parseLine(line: string): unknown {
  try {
    return decodeJsonOrYaml(line);
  } catch (err) {
    if (err instanceof DocumentSyntaxError) throw new LineError(err.message);
    throw err;
  }
}

function typeMetaOf(doc: unknown): { apiVersion: string; kind: string } {
  try {
    return readTypeMeta(doc);
  } catch (err) {
    throw new LineError((err as Error).message);
  }
}

/** v1beta1 as upstream converts it: a "*" user or group means every authenticated user. */
function fromV1beta1(doc: unknown): AbacPolicySpec {
  const spec = (doc as Record<string, unknown>)['spec'];
  if (spec !== undefined && spec !== null && goJsonType(spec) !== 'object') {
    throw new LineError(cannotUnmarshalField(spec, 'Policy', 'spec', 'v1beta1.PolicySpec'));
  }
  const read = fieldReader((spec ?? {}) as Record<string, unknown>, 'PolicySpec', 'spec.');
  const user = read.string('user');
  const group = read.string('group');
  const wildcard = user === '*' || group === '*';
  return {
    user: wildcard ? '' : user,
    group: wildcard ? ALL_AUTHENTICATED : group,
    readonly: read.bool('readonly'),
    apiGroup: read.string('apiGroup'),
    resource: read.string('resource'),
    namespace: read.string('namespace'),
    nonResourcePath: read.string('nonResourcePath'),
  };
}

/**
 * v0 as upstream converts it: no subject (or "*") means every authenticated user; an empty
 * namespace or resource means all of them; every API group; and a rule naming neither a namespace
 * nor a resource also covers every non-resource path.
 */
function fromV0(doc: unknown): AbacPolicySpec {
  const read = fieldReader((doc ?? {}) as Record<string, unknown>, 'Policy', '');
  const user = read.string('user');
  const group = read.string('group');
  const namespace = read.string('namespace');
  const resource = read.string('resource');
  const everyone = (user === '' && group === '') || user === '*' || group === '*';
  return {
    user: user === '*' || group === '*' ? '' : user,
    group: everyone ? ALL_AUTHENTICATED : group,
    readonly: read.bool('readonly'),
    apiGroup: '*',
    resource: resource === '' ? '*' : resource,
    namespace: namespace === '' ? '*' : namespace,
    nonResourcePath: namespace === '' && resource === '' ? '*' : '',
  };
}

/** Reads fields as encoding/json fills a struct: null leaves the zero value, a wrong type fails. */
function fieldReader(fields: Record<string, unknown>, struct: string, prefix: string) {
  const value = (key: string, type: 'string' | 'boolean'): unknown => {
    const v = fields[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== type) throw new LineError(cannotUnmarshalField(v, struct, prefix + key, type === 'string' ? 'string' : 'bool'));
    return v;
  };
  return {
    string: (key: string): string => (value(key, 'string') as string | undefined) ?? '',
    bool: (key: string): boolean => (value(key, 'boolean') as boolean | undefined) ?? false,
  };
}
