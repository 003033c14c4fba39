/**
 * Turns compact schema nodes back into OpenAPI schema objects, for OpenAPI 3.0 (components) and
 * Swagger 2.0 (definitions). No prose exists to put back; everything else round-trips.
 */
import type { SchemaNode } from '../registry/schema/schema-node.js';

export type OpenApiFlavor = 'v2' | 'v3';
type Json = Record<string, unknown>;

const refPrefix = (flavor: OpenApiFlavor): string => (flavor === 'v3' ? '#/components/schemas/' : '#/definitions/');

/** An OpenAPI `$ref` object to definition `name`. */
export function refTo(name: string, flavor: OpenApiFlavor): Json {
  return { $ref: `${refPrefix(flavor)}${name}` };
}

/** The OpenAPI form of `node`. */
export function toOpenApiSchema(node: SchemaNode, flavor: OpenApiFlavor): Json {
  const ext = extensions(node);
  if (node.ref !== undefined) {
    if (Object.keys(ext).length === 0) return refTo(node.ref, flavor);
    // OpenAPI 3.0 ignores siblings of $ref, so upstream wraps the ref in allOf when it has any.
    return flavor === 'v3' ? { allOf: [refTo(node.ref, flavor)], ...ext } : { ...refTo(node.ref, flavor), ...ext };
  }
  const out: Json = {};
  if (node.oneOf !== undefined && flavor === 'v2') {
    // Swagger 2.0 has no oneOf: upstream writes Quantity and IntOrString as strings there.
    out.type = 'string';
  } else if (node.type !== undefined) {
    out.type = node.type;
  }
  if (node.format !== undefined) out.format = node.format;
  if (node.enum !== undefined) out.enum = node.enum;
  if (node.properties !== undefined) {
    out.properties = Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [k, toOpenApiSchema(v, flavor)]));
  }
  if (node.required !== undefined) out.required = node.required;
  if (node.items !== undefined) out.items = toOpenApiSchema(node.items, flavor);
  if (node.additionalProperties !== undefined) {
    out.additionalProperties = typeof node.additionalProperties === 'boolean' ? node.additionalProperties : toOpenApiSchema(node.additionalProperties, flavor);
  }
  if (node.oneOf !== undefined && flavor === 'v3') out.oneOf = node.oneOf.map((n) => toOpenApiSchema(n, flavor));
  return { ...out, ...ext };
}

function extensions(node: SchemaNode): Json {
  const ext: Json = {};
  if (node.intOrString) ext['x-kubernetes-int-or-string'] = true;
  if (node.preserveUnknownFields) ext['x-kubernetes-preserve-unknown-fields'] = true;
  if (node.embeddedResource) ext['x-kubernetes-embedded-resource'] = true;
  if (node.gvk !== undefined) ext['x-kubernetes-group-version-kind'] = node.gvk.map((g) => ({ group: g.group, kind: g.kind, version: g.version }));
  if (node.listMapKeys !== undefined) ext['x-kubernetes-list-map-keys'] = node.listMapKeys;
  if (node.listType !== undefined) ext['x-kubernetes-list-type'] = node.listType;
  if (node.mapType !== undefined) ext['x-kubernetes-map-type'] = node.mapType;
  if (node.patchMergeKey !== undefined) ext['x-kubernetes-patch-merge-key'] = node.patchMergeKey;
  if (node.patchStrategy !== undefined) ext['x-kubernetes-patch-strategy'] = node.patchStrategy;
  if (node.unions !== undefined) ext['x-kubernetes-unions'] = node.unions;
  return ext;
}

/** Names of every definition reachable from `roots` (roots included), sorted. */
export function referencedDefinitions(roots: Iterable<string>, lookup: (name: string) => SchemaNode | undefined): string[] {
  const seen = new Set<string>();
  const pending = [...roots];
  const visit = (node: SchemaNode): void => {
    if (node.ref !== undefined) pending.push(node.ref);
    for (const child of Object.values(node.properties ?? {})) visit(child);
    if (node.items) visit(node.items);
    if (typeof node.additionalProperties === 'object') visit(node.additionalProperties);
    for (const alt of node.oneOf ?? []) visit(alt);
  };
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (seen.has(name)) continue;
    const node = lookup(name);
    if (!node) continue;
    seen.add(name);
    visit(node);
  }
  return [...seen].sort();
}
