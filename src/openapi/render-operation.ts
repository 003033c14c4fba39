/**
 * Renders neutral operations (operations.ts) as OpenAPI 3.0 or Swagger 2.0 operation objects, with
 * the x-kubernetes-action and x-kubernetes-group-version-kind extensions clients rely on.
 */
import type { Body, Operation, Parameter, PathItem } from './operations.js';
import { PATCH } from './operations.js';
import { refTo, type OpenApiFlavor } from './schema-conversion.js';

type Json = Record<string, unknown>;

const OBJECT_MEDIA_TYPES = ['application/cbor', 'application/json', 'application/vnd.kubernetes.protobuf', 'application/yaml'];
const STREAM_MEDIA_TYPES = [
  'application/cbor', 'application/cbor-seq', 'application/json', 'application/json;stream=watch',
  'application/vnd.kubernetes.protobuf', 'application/vnd.kubernetes.protobuf;stream=watch', 'application/yaml',
];
const PATCH_MEDIA_TYPES = [
  'application/apply-patch+cbor', 'application/apply-patch+yaml', 'application/json-patch+json',
  'application/merge-patch+json', 'application/strategic-merge-patch+json',
];
const STATUS_TEXT: Readonly<Record<string, string>> = { '200': 'OK', '201': 'Created', '202': 'Accepted', '401': 'Unauthorized' };

/** A path item object: path-level parameters plus one entry per method. */
export function renderPathItem(item: PathItem, flavor: OpenApiFlavor): Json {
  const out: Json = {};
  for (const op of [...item.operations].sort((a, b) => (a.method < b.method ? -1 : 1))) out[op.method] = renderOperation(op, flavor);
  if (item.parameters.length > 0) out.parameters = item.parameters.map((p) => renderParameter(p, flavor));
  return out;
}

function renderOperation(op: Operation, flavor: OpenApiFlavor): Json {
  return flavor === 'v3' ? renderV3(op) : renderV2(op);
}

function renderV3(op: Operation): Json {
  const out: Json = { operationId: op.operationId };
  if (op.parameters.length > 0) out.parameters = op.parameters.map((p) => renderParameter(p, 'v3'));
  if (op.request) {
    const types = op.request.patch ? PATCH_MEDIA_TYPES : ['*/*'];
    out.requestBody = { content: Object.fromEntries(types.map((t) => [t, { schema: bodySchema(op.request!, 'v3') }])), required: true };
  }
  const responses: Json = {};
  for (const code of op.codes) {
    const response: Json = {};
    if (op.response) {
      const types = 'text' in op.response ? ['*/*'] : op.streams ? STREAM_MEDIA_TYPES : OBJECT_MEDIA_TYPES;
      response.content = Object.fromEntries(types.map((t) => [t, { schema: bodySchema(op.response!, 'v3') }]));
    }
    response.description = STATUS_TEXT[code];
    responses[code] = response;
  }
  responses['401'] = { description: STATUS_TEXT['401'] };
  out.responses = responses;
  return withExtensions(out, op);
}

function renderV2(op: Operation): Json {
  const text = op.response !== undefined && 'text' in op.response;
  const out: Json = {
    consumes: op.request?.patch ? PATCH_MEDIA_TYPES : ['*/*'],
    produces: text ? ['*/*'] : op.streams ? STREAM_MEDIA_TYPES.filter((t) => t !== 'application/cbor-seq') : OBJECT_MEDIA_TYPES,
    schemes: ['https'],
    operationId: op.operationId,
  };
  const parameters = op.parameters.map((p) => renderParameter(p, 'v2'));
  if (op.request) parameters.unshift({ in: 'body', name: 'body', required: true, schema: bodySchema(op.request, 'v2') });
  if (parameters.length > 0) out.parameters = parameters;
  const responses: Json = {};
  for (const code of op.codes) {
    responses[code] = op.response ? { description: STATUS_TEXT[code], schema: bodySchema(op.response, 'v2') } : { description: STATUS_TEXT[code] };
  }
  responses['401'] = { description: STATUS_TEXT['401'] };
  out.responses = responses;
  return withExtensions(out, op);
}

function withExtensions(out: Json, op: Operation): Json {
  out.tags = [op.tag];
  if (op.action !== undefined) out['x-kubernetes-action'] = op.action;
  if (op.gvk !== undefined) out['x-kubernetes-group-version-kind'] = { group: op.gvk.group, kind: op.gvk.kind, version: op.gvk.version };
  return out;
}

function bodySchema(body: Body, flavor: OpenApiFlavor): Json {
  return 'schema' in body ? refTo(body.schema, flavor) : { type: 'string' };
}

function renderParameter(p: Parameter, flavor: OpenApiFlavor): Json {
  const required = p.required ? { required: true } : {};
  return flavor === 'v3'
    ? { in: p.in, name: p.name, ...required, schema: { type: p.type, uniqueItems: true } }
    : { in: p.in, name: p.name, ...required, type: p.type, uniqueItems: true };
}

/** Definitions named by the operations' bodies. */
export function bodyDefinitions(items: readonly PathItem[]): Set<string> {
  const names = new Set<string>();
  for (const item of items) {
    for (const op of item.operations) {
      for (const body of [op.request, op.response]) if (body && 'schema' in body) names.add(body.schema);
      if (op.request?.patch) names.add(PATCH);
    }
  }
  return names;
}
