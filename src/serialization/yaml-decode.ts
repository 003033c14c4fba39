/**
 * A YAML body to the object model, read as upstream reads it (sigs.k8s.io/yaml on go-yaml v2):
 * YAML 1.1 scalars (`yes` is true, `0777` is octal), timestamps and base-60 numbers kept as strings,
 * merge keys honoured, non-string keys turned into strings, only the first document read. Duplicate
 * keys are reported as go-yaml's strict mode words them, for the field-validation level to judge.
 */
import type { Document, LineCounter, Node, Tags } from 'yaml';
import { goQuote } from './go-format.js';
import { treeFacts } from './json-decode.js';
import { MAX_JSON_DEPTH } from './json-syntax.js';
import { loadYamlLibrary, type YamlLibrary } from './yaml-library.js';

/** A body that is not YAML; the message is `yaml: line N: ...` as upstream's is. */
export class YamlSyntaxError extends Error {
  override readonly name = 'YamlSyntaxError';
}

export interface DecodedYaml {
  readonly value: unknown;
  /**
   * go-yaml's strict-mode error when keys repeat (`yaml: unmarshal errors:\n  line 3: key "a"
   * already set in map`), empty when none do.
   */
  readonly strictErrors: readonly string[];
}

/** Tags of the YAML 1.1 schema that go-yaml does not apply when decoding into untyped values. */
const UNUSED_TAGS = new Set([
  'tag:yaml.org,2002:timestamp',
  'tag:yaml.org,2002:binary',
  'tag:yaml.org,2002:omap',
  'tag:yaml.org,2002:pairs',
  'tag:yaml.org,2002:set',
]);

/** Aliases a document may expand before it is treated as a resource-exhaustion attack. */
const MAX_ALIAS_COUNT = 100;

function goYamlTags(tags: Tags): Tags {
  // Sexagesimal numbers (`190:20:30`) are YAML 1.1 but go-yaml reads them as strings.
  return tags.filter((t) => typeof t === 'string' || (t.format !== 'TIME' && !UNUSED_TAGS.has(t.tag)));
}

/** The key as go-yaml's `%#v` prints it: strings quoted, numbers and booleans bare. */
function formatKey(key: unknown, { isScalar }: YamlLibrary): string {
  if (isScalar(key)) {
    const v = key.value;
    return typeof v === 'string' ? goQuote(v) : v === null ? '<nil>' : String(v);
  }
  return goQuote(String(key));
}

function lineOf(node: Node | null | undefined, fallback: Node | null | undefined, lines: LineCounter): number {
  const range = node?.range ?? fallback?.range;
  return range ? lines.linePos(range[0]).line : 1;
}

/** Repeated keys in every mapping of the document, as go-yaml's strict decoder lists them. */
function duplicateKeyMessages(doc: Document.Parsed, lines: LineCounter, yaml: YamlLibrary): string[] {
  const { isAlias, isMap, isScalar, isSeq } = yaml;
  const found: { line: number; message: string }[] = [];
  const pending: unknown[] = [doc.contents];
  while (pending.length > 0) {
    const node = pending.pop();
    if (isSeq(node)) {
      pending.push(...node.items);
    } else if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const keyText = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        if (keyText === '<<' && !isScalar(pair.value)) continue;
        if (seen.has(keyText)) {
          const line = lineOf(pair.value as Node | null, pair.key as Node | null, lines);
          found.push({ line, message: `line ${line}: key ${formatKey(pair.key, yaml)} already set in map` });
        }
        seen.add(keyText);
        if (!isAlias(pair.value)) pending.push(pair.value);
      }
    }
  }
  // The walk is depth-first from the end; go-yaml reports in document order.
  return found.sort((a, b) => a.line - b.line).map((f) => f.message);
}

/**
 * Parses a YAML body with `yaml` (loaded here when the caller holds none). Throws YamlSyntaxError
 * for text that is not YAML (or expands too many aliases). Returns null for an empty body.
 */
export function decodeYaml(bytes: Uint8Array, yaml: YamlLibrary = loadYamlLibrary()): DecodedYaml {
  const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const lines = new yaml.LineCounter();
  const docs = yaml.parseAllDocuments(source, {
    version: '1.1',
    merge: true,
    uniqueKeys: false,
    prettyErrors: false,
    lineCounter: lines,
    customTags: goYamlTags,
  });
  const doc = Array.isArray(docs) ? docs[0] : undefined;
  if (doc === undefined) return { value: null, strictErrors: [] };
  const error = doc.errors[0];
  if (error !== undefined) {
    throw new YamlSyntaxError(`yaml: line ${lines.linePos(error.pos[0]).line}: ${error.message}`);
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    throw new YamlSyntaxError(`yaml: ${(err as Error).message}`);
  }
  if (treeFacts(value).depth > MAX_JSON_DEPTH) throw new YamlSyntaxError(`yaml: exceeded max depth of ${MAX_JSON_DEPTH}`);
  const duplicates = duplicateKeyMessages(doc, lines, yaml);
  const strictErrors = duplicates.length === 0 ? [] : [`yaml: unmarshal errors:\n  ${duplicates.join('\n  ')}`];
  return { value: value ?? null, strictErrors };
}
