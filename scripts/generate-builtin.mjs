#!/usr/bin/env node
// Generates the catalog of built-in resource types and their compact schema from the upstream
// reference documents (shared/reference), into src/registry/catalog/generated/.
//
//   node scripts/generate-builtin.mjs            write the files
//   node scripts/generate-builtin.mjs --check    exit 1 if the committed files are stale
//   --reference <dir> (or CAPSTAN_REFERENCE_DIR) picks another reference directory.
//
// Inputs: openapi/1.35 (schemas, paths with x-kubernetes-action, group-version-kind, patch and
// list metadata), discovery-1.32 (singular names, short names, categories, storage version hashes)
// and tables-1.32/columns.json. Only facts carry over: names, types, flags, extensions. Description
// strings, defaults and examples are dropped. Output is deterministic: keys are written in a fixed
// order and every collection is sorted or kept in the source's order.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(repoRoot, 'src/registry/catalog/generated');

// Which group-versions upstream 1.35 serves by default (pkg/controlplane/instance.go,
// DefaultAPIResourceConfigSource, and the apiextensions/aggregator equivalents): every GA version,
// including resource.k8s.io/v1 (GA since 1.34). Since KEP-3136 new beta APIs are off by default,
// and no beta group-version is on by default in 1.35 (admissionregistration v1beta1, certificates
// v1beta1, coordination v1beta1, networking v1beta1, resource v1beta1/v1beta2, storage v1beta1,
// storagemigration v1beta1 all need --runtime-config); alpha versions are always off. So the rule
// is "GA versions only", checked against the 1.32 capture (which lists exactly the GA set).
const isEnabledByDefault = (version) => /^v\d+$/.test(version);

// Discovery order of groups and of versions inside a group: the aggregator's APIService priorities
// (pkg/controlplane/apiserver/aggregator.go and cmd/kube-apiserver/app/aggregator.go). The
// aggregator's own group is listed before all others. Ties in group priority sort by name.
const GROUP_PRIORITY = {
  'apiregistration.k8s.io': 1_000_000,
  '': 18000,
  apps: 17800,
  'events.k8s.io': 17750,
  'authentication.k8s.io': 17700,
  'authorization.k8s.io': 17600,
  autoscaling: 17500,
  batch: 17400,
  'certificates.k8s.io': 17300,
  'networking.k8s.io': 17200,
  policy: 17100,
  'rbac.authorization.k8s.io': 17000,
  'storage.k8s.io': 16800,
  'admissionregistration.k8s.io': 16700,
  'apiextensions.k8s.io': 16700,
  'scheduling.k8s.io': 16600,
  'coordination.k8s.io': 16500,
  'node.k8s.io': 16300,
  'discovery.k8s.io': 16200,
  'flowcontrol.apiserver.k8s.io': 16100,
  'internal.apiserver.k8s.io': 16000,
  'resource.k8s.io': 15900,
  'storagemigration.k8s.io': 15800,
};

// Facts about resources that are new since the 1.32 capture, from upstream's REST storage
// (ShortNames/Categories in pkg/registry/<group>/<resource>/storage) and table printers
// (pkg/printers/internalversion/printers.go). Everything else comes from the reference files.
const NEW_RESOURCE_FACTS = {
  'networking.k8s.io/ipaddresses': { shortNames: ['ip'], columns: [['Name', 'string', 'name'], ['ParentRef', 'string']] },
  'networking.k8s.io/servicecidrs': { columns: [['Name', 'string', 'name'], ['CIDRs', 'string'], ['Age', 'string']] },
  'storage.k8s.io/volumeattributesclasses': { shortNames: ['vac'], columns: [['Name', 'string', 'name'], ['DriverName', 'string'], ['Age', 'string']] },
  'resource.k8s.io/deviceclasses': { columns: [['Name', 'string', 'name'], ['Age', 'string']] },
  'resource.k8s.io/resourceclaims': { columns: [['Name', 'string', 'name'], ['State', 'string'], ['Age', 'string']] },
  'resource.k8s.io/resourceclaimtemplates': { columns: [['Name', 'string', 'name'], ['Age', 'string']] },
  'resource.k8s.io/resourceslices': { columns: [['Name', 'string', 'name'], ['Node', 'string'], ['Driver', 'string'], ['Pool', 'string'], ['Age', 'string']] },
};

const CONNECT_METHOD_VERBS = { get: 'get', post: 'create', put: 'update', patch: 'patch', delete: 'delete' };
const ACTION_VERBS = {
  get: 'get', list: 'list', watch: 'watch', watchlist: 'watch', post: 'create', put: 'update',
  patch: 'patch', delete: 'delete', deletecollection: 'deletecollection',
};

function main() {
  const args = process.argv.slice(2);
  const refIndex = args.indexOf('--reference');
  const referenceDir = refIndex >= 0 ? resolve(args[refIndex + 1])
    : process.env.CAPSTAN_REFERENCE_DIR ? resolve(process.env.CAPSTAN_REFERENCE_DIR)
      : resolve(repoRoot, '../shared/reference');
  if (!existsSync(join(referenceDir, 'openapi'))) {
    console.error(`reference directory not found: ${referenceDir}`);
    process.exit(2);
  }
  const files = generate(referenceDir);
  if (args.includes('--check')) {
    const stale = Object.keys(files).filter((name) => {
      const path = join(outDir, name);
      return !existsSync(path) || readFileSync(path, 'utf8') !== files[name];
    });
    if (stale.length > 0) {
      console.error(`stale generated files (run node scripts/generate-builtin.mjs): ${stale.join(', ')}`);
      process.exit(1);
    }
    return;
  }
  mkdirSync(outDir, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(outDir, name), content);
  for (const warning of warnings) console.warn(`warning: ${warning}`);
}

const warnings = [];

/** Returns the generated files by name. */
export function generate(referenceDir) {
  const documents = readOpenApiDocuments(join(referenceDir, 'openapi/1.35'));
  const discovery = readDiscovery(join(referenceDir, 'discovery-1.32'));
  const columns = JSON.parse(readFileSync(join(referenceDir, 'tables-1.32/columns.json'), 'utf8'));
  const definitions = collectDefinitions(documents);
  const groupVersions = documents.map((doc) => buildGroupVersion(doc, discovery, columns));
  assignStorageVersions(groupVersions);
  groupVersions.sort(compareGroupVersions);
  return {
    'catalog.json': renderCatalog(groupVersions),
    'schemas.json': renderSchemas(definitions),
  };
}

// ---- reading ------------------------------------------------------------------------------

function readOpenApiDocuments(dir) {
  const docs = [{ group: '', version: 'v1', doc: readJson(join(dir, 'api/v1.json')) }];
  for (const group of readdirSync(join(dir, 'apis')).sort()) {
    for (const file of readdirSync(join(dir, 'apis', group)).sort()) {
      docs.push({ group, version: file.replace(/\.json$/, ''), doc: readJson(join(dir, 'apis', group, file)) });
    }
  }
  return docs;
}

/** Per group-version key ("v1", "apps/v1"), resource name → APIResource of the 1.32 capture. */
function readDiscovery(dir) {
  const out = new Map();
  for (const file of readdirSync(dir).sort()) {
    const match = /^(api_v1|apis_(.+)_(v[^_]+))\.json$/.exec(file);
    if (!match) continue;
    const list = readJson(join(dir, file));
    const byName = new Map(list.resources.map((r) => [r.name, r]));
    out.set(list.groupVersion, byName);
  }
  return out;
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

// ---- resources from paths -----------------------------------------------------------------

function buildGroupVersion({ group, version, doc }, discovery, columns) {
  const gvKey = group ? `${group}/${version}` : version;
  const prefix = group ? `/apis/${group}/${version}/` : `/api/${version}/`;
  const resources = new Map();
  const get = (name) => {
    if (!resources.has(name)) resources.set(name, { name, namespaced: false, verbs: new Set(), subresources: new Map() });
    return resources.get(name);
  };
  for (const path of Object.keys(doc.paths).sort()) {
    if (!path.startsWith(prefix)) continue;
    let segments = path.slice(prefix.length).split('/').filter(Boolean);
    if (segments.length === 0 || segments[0] === 'watch') {
      if (segments[0] === 'watch') addWatch(segments.slice(1), get);
      continue;
    }
    let namespaced = false;
    if (segments[0] === 'namespaces' && segments[1] === '{namespace}' && segments.length > 2) {
      namespaced = true;
      segments = segments.slice(2);
    }
    const resource = get(segments[0]);
    if (namespaced) resource.namespaced = true;
    const operations = operationsOf(doc.paths[path]);
    if (segments.length <= 2) {
      for (const op of operations) {
        const verb = ACTION_VERBS[op.action];
        // The list across all namespaces adds nothing the namespaced paths do not have.
        if (verb) resource.verbs.add(verb);
        noteKinds(resource, op);
      }
    } else if (segments.length === 3) {
      addSubresource(resource, segments[2], operations, group, version);
    }
  }
  const captured = discovery.get(gvKey);
  const out = [];
  for (const resource of [...resources.values()].sort((a, b) => cmp(a.name, b.name))) {
    out.push(finishResource(resource, group, version, captured, columns));
  }
  if (captured) crossCheck(gvKey, out, captured);
  return { group, version, enabledByDefault: isEnabledByDefault(version), resources: out };
}

function addWatch(segments, get) {
  if (segments[0] === 'namespaces' && segments[1] === '{namespace}' && segments.length > 2) segments = segments.slice(2);
  if (segments.length <= 2) get(segments[0]).verbs.add('watch');
}

function operationsOf(pathItem) {
  const ops = [];
  for (const method of Object.keys(pathItem).sort()) {
    if (method === 'parameters') continue;
    const op = pathItem[method];
    ops.push({ method, action: op['x-kubernetes-action'], gvk: op['x-kubernetes-group-version-kind'], op });
  }
  return ops;
}

function noteKinds(resource, { action, gvk, op }) {
  if (gvk && !resource.kind) resource.kind = gvk.kind;
  if (action === 'list') resource.listSchema = responseRef(op);
  // Paths are visited in order, so the item's get (which names the kind's schema) overrides the
  // collection's create; create-only types (reviews, bindings) keep the create body's schema.
  if (action === 'get') resource.schema = responseRef(op) ?? resource.schema;
  if (action === 'post' && !resource.schema) resource.schema = responseRef(op) ?? requestRef(op);
}

function addSubresource(resource, name, operations, group, version) {
  const sub = resource.subresources.get(name) ?? { name, verbs: new Set() };
  for (const { method, action, gvk, op } of operations) {
    const verb = action === 'connect' ? CONNECT_METHOD_VERBS[method] : ACTION_VERBS[action];
    if (verb) sub.verbs.add(verb);
    if (gvk) {
      sub.kind = gvk.kind;
      if (gvk.group !== group || gvk.version !== version) {
        sub.group = gvk.group;
        sub.version = gvk.version;
      }
    }
    if (action !== 'connect' && !sub.schema) {
      const ref = responseRef(op) ?? requestRef(op);
      if (ref) sub.schema = ref;
    }
  }
  resource.subresources.set(name, sub);
}

function responseRef(op) {
  for (const code of ['200', '201', '202']) {
    const ref = op.responses?.[code]?.content?.['application/json']?.schema?.$ref;
    if (ref) return refName(ref);
  }
  return undefined;
}

function requestRef(op) {
  const ref = op.requestBody?.content?.['*/*']?.schema?.$ref ?? op.requestBody?.content?.['application/json']?.schema?.$ref;
  return ref ? refName(ref) : undefined;
}

const refName = (ref) => ref.slice(ref.lastIndexOf('/') + 1);

function finishResource(r, group, version, captured, columns) {
  const seen = captured?.get(r.name);
  const facts = NEW_RESOURCE_FACTS[`${group}/${r.name}`] ?? {};
  if (!seen && !facts.columns && isEnabledByDefault(version)) warnings.push(`no table columns known for ${group}/${version}/${r.name}`);
  const kind = r.kind ?? seen?.kind;
  const subresources = {};
  for (const sub of [...r.subresources.values()].sort((a, b) => cmp(a.name, b.name))) {
    subresources[sub.name] = pick({
      kind: sub.kind ?? kind,
      group: sub.group,
      version: sub.version,
      verbs: sortVerbs(sub.verbs),
      schema: sub.schema,
    });
  }
  const tableKey = group ? `${group}/${version}/${r.name}` : `${version}/${r.name}`;
  const table = columns[tableKey] ?? facts.columns?.map(([name, type, format]) => ({ name, type, format: format ?? '', priority: 0 }));
  return pick({
    resource: r.name,
    singularName: seen?.singularName ?? kind.toLowerCase(),
    kind,
    listKind: r.listSchema ? r.listSchema.slice(r.listSchema.lastIndexOf('.') + 1) : `${kind}List`,
    namespaced: r.namespaced,
    verbs: sortVerbs(r.verbs),
    shortNames: seen?.shortNames ?? facts.shortNames,
    categories: seen?.categories ?? facts.categories,
    subresources: Object.keys(subresources).length > 0 ? subresources : undefined,
    schema: r.schema,
    tableColumns: table?.map((c) => ({ name: c.name, type: c.type, format: c.format, priority: c.priority })),
    storageVersionHash: seen?.storageVersionHash,
    // Stored types are those upstream lists with a storage version hash; new types count as stored
    // when they can be created and read back.
    stored: seen ? seen.storageVersionHash !== undefined : ['create', 'get', 'list'].every((v) => r.verbs.has(v)),
  });
}

/** Reports where the 1.35 paths and the 1.32 capture disagree, so a reader can judge each case. */
function crossCheck(gvKey, resources, captured) {
  for (const r of resources) {
    const seen = captured.get(r.resource);
    if (!seen) { warnings.push(`${gvKey}: ${r.resource} is new since 1.32`); continue; }
    if (seen.kind !== r.kind) warnings.push(`${gvKey}: ${r.resource} kind ${r.kind} vs captured ${seen.kind}`);
    if (seen.namespaced !== r.namespaced) warnings.push(`${gvKey}: ${r.resource} scope differs`);
    if (seen.verbs.join() !== r.verbs.join()) warnings.push(`${gvKey}: ${r.resource} verbs ${r.verbs} vs captured ${seen.verbs}`);
    for (const [name, sub] of Object.entries(r.subresources ?? {})) {
      const s = captured.get(`${r.resource}/${name}`);
      if (!s) { warnings.push(`${gvKey}: ${r.resource}/${name} is new since 1.32`); continue; }
      if (s.verbs.join() !== sub.verbs.join() || s.kind !== sub.kind || (s.group ?? sub.group) !== sub.group) {
        warnings.push(`${gvKey}: ${r.resource}/${name} ${JSON.stringify(sub)} vs captured ${JSON.stringify(s)}`);
      }
    }
  }
  for (const name of captured.keys()) {
    const [base, sub] = name.split('/');
    const r = resources.find((x) => x.resource === base);
    if (!r || (sub && !r.subresources?.[sub])) warnings.push(`${gvKey}: captured ${name} missing from 1.35`);
  }
}

/**
 * A resource served in several versions of its group is stored in one of them. Upstream stores in
 * the preferred GA version, so the storage version is the highest-priority version of the group
 * that serves the resource; the hash follows it (base64 of 8 bytes of sha256("group/version/kind")).
 */
function assignStorageVersions(groupVersions) {
  const byGroupResource = new Map();
  for (const gv of groupVersions) {
    for (const r of gv.resources) {
      const key = `${gv.group}/${r.resource}`;
      if (!byGroupResource.has(key)) byGroupResource.set(key, []);
      byGroupResource.get(key).push({ gv, r });
    }
  }
  for (const entries of byGroupResource.values()) {
    const storage = entries.map((e) => e.gv.version).sort(compareVersions)[0];
    const storageKind = entries.find((e) => e.gv.version === storage).r.kind;
    for (const entry of entries) {
      const { stored, storageVersionHash: captured, ...rest } = entry.r;
      const index = entry.gv.resources.indexOf(entry.r);
      entry.gv.resources[index] = stored
        ? { ...rest, storageVersion: storage, storageVersionHash: captured ?? storageVersionHash(entry.gv.group, storage, storageKind) }
        : rest;
    }
  }
}

function storageVersionHash(group, version, kind) {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

// ---- ordering -------------------------------------------------------------------------------

const VERB_ORDER = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const sortVerbs = (set) => [...set].sort((a, b) => VERB_ORDER.indexOf(a) - VERB_ORDER.indexOf(b));
const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** Upstream's version ordering: GA before beta before alpha, higher numbers first. */
function compareVersions(a, b) {
  const parse = (v) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    return m ? [m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1, Number(m[1]), Number(m[3] ?? 0)] : [0, 0, 0];
  };
  const [pa, pb] = [parse(a), parse(b)];
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pb[i] - pa[i];
  return cmp(a, b);
}

function compareGroupVersions(a, b) {
  const pa = GROUP_PRIORITY[a.group] ?? 0;
  const pb = GROUP_PRIORITY[b.group] ?? 0;
  if (pa !== pb) return pb - pa;
  if (a.group !== b.group) return cmp(a.group, b.group);
  return compareVersions(a.version, b.version);
}

// ---- schema -----------------------------------------------------------------------------------

function collectDefinitions(documents) {
  const all = new Map();
  for (const { doc } of documents) {
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      const compact = compactSchema(schema);
      const previous = all.get(name);
      if (previous && JSON.stringify(previous) !== JSON.stringify(compact)) {
        throw new Error(`definition ${name} differs between documents`);
      }
      all.set(name, compact);
    }
  }
  return new Map([...all.entries()].sort(([a], [b]) => cmp(a, b)));
}

/** The compact form of one schema node; field names match src/registry/schema/schema-node.ts. */
function compactSchema(node) {
  if (node.$ref) return { ref: refName(node.$ref) };
  if (node.allOf?.length === 1 && node.allOf[0].$ref && !node.type) {
    return pick({ ref: refName(node.allOf[0].$ref), ...extensions(node) });
  }
  const properties = node.properties
    ? Object.fromEntries(Object.keys(node.properties).sort().map((k) => [k, compactSchema(node.properties[k])]))
    : undefined;
  const additional = node.additionalProperties;
  return pick({
    type: node.type,
    format: node.format,
    enum: node.enum,
    properties,
    required: node.required ? [...node.required] : undefined,
    items: node.items ? compactSchema(node.items) : undefined,
    additionalProperties: additional === undefined ? undefined : typeof additional === 'boolean' ? additional : compactSchema(additional),
    oneOf: node.oneOf?.map(compactSchema),
    ...extensions(node),
  });
}

function extensions(node) {
  return {
    intOrString: node['x-kubernetes-int-or-string'] || undefined,
    preserveUnknownFields: node['x-kubernetes-preserve-unknown-fields'] || undefined,
    embeddedResource: node['x-kubernetes-embedded-resource'] || undefined,
    patchStrategy: node['x-kubernetes-patch-strategy'],
    patchMergeKey: node['x-kubernetes-patch-merge-key'],
    listType: node['x-kubernetes-list-type'],
    listMapKeys: node['x-kubernetes-list-map-keys'],
    mapType: node['x-kubernetes-map-type'],
    unions: node['x-kubernetes-unions'],
    gvk: node['x-kubernetes-group-version-kind']?.map((g) => ({ group: g.group, version: g.version, kind: g.kind })),
  };
}

/** Drops undefined fields, so the output only carries what the source said. */
function pick(object) {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined));
}

// ---- rendering ------------------------------------------------------------------------------

const HEADER = 'Generated by scripts/generate-builtin.mjs from the upstream 1.35 reference documents. Do not edit.';

function renderCatalog(groupVersions) {
  const lines = ['{', `"comment": ${JSON.stringify(HEADER)},`, '"groupVersions": ['];
  groupVersions.forEach((gv, i) => {
    lines.push(`{"group": ${JSON.stringify(gv.group)}, "version": ${JSON.stringify(gv.version)}, "enabledByDefault": ${gv.enabledByDefault}, "resources": [`);
    gv.resources.forEach((r, j) => lines.push(JSON.stringify(r) + (j < gv.resources.length - 1 ? ',' : '')));
    lines.push(']}' + (i < groupVersions.length - 1 ? ',' : ''));
  });
  lines.push(']', '}', '');
  return lines.join('\n');
}

// One definition per line: loadBuiltinSchemas (src/registry/schema/schema-set.ts) splits the file
// by lines and parses a definition only when it is asked for (it parses a file laid out otherwise whole).
function renderSchemas(definitions) {
  const lines = ['{', `"comment": ${JSON.stringify(HEADER)},`, '"definitions": {'];
  const names = [...definitions.keys()];
  names.forEach((name, i) => {
    lines.push(`${JSON.stringify(name)}: ${JSON.stringify(definitions.get(name))}${i < names.length - 1 ? ',' : ''}`);
  });
  lines.push('}', '}', '');
  return lines.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
