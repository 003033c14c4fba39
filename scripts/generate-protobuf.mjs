#!/usr/bin/env node
// Generates the compact Protobuf descriptor of the built-in types into
// src/serialization/protobuf/generated/descriptor.json.
//
//   node scripts/generate-protobuf.mjs --go-src <dir>            write the file
//   node scripts/generate-protobuf.mjs --go-src <dir> --check    exit 1 if the committed file is stale
//   --reference <dir> (or CAPSTAN_REFERENCE_DIR) picks another reference directory.
//   --go-src <dir> (or CAPSTAN_K8S_GO_SRC) holds the Go sources of the three modules at the
//   descriptor's release, one folder each:
//     git clone --depth 1 --branch v0.35.7 https://github.com/kubernetes/api <dir>/api
//     git clone --depth 1 --branch v0.35.7 https://github.com/kubernetes/apimachinery <dir>/apimachinery
//     git clone --depth 1 --branch v0.35.7 https://github.com/kubernetes/apiextensions-apiserver <dir>/apiextensions-apiserver
//
// Why two inputs. The reference descriptor (protobuf/k8s-1.35-descriptor.json) gives the wire
// facts: messages, field numbers, types, repeated and map fields. It does not give what the JSON
// object model needs: upstream's Go structs always put every non-pointer field on the wire (an empty
// name as "", generation as 0, an unset creationTimestamp as an empty message), so whether a zero
// on the wire shows in JSON depends on the Go field: its JSON name, `omitempty`/`omitzero`, whether
// it is a pointer, and whether it is inlined. Those facts are read from the Go struct tags, matched
// to the descriptor by field number. The registered kinds of each group-version come from the
// packages' register.go. Only facts carry over; no code or comments.
//
// Output is deterministic: messages sorted by full name, fields in Go declaration order (the
// order of keys in upstream's JSON), group-versions and kinds sorted. Messages no kind reaches are
// left out.
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outFile = join(repoRoot, 'src/serialization/protobuf/generated/descriptor.json');

/** Field flags; the runtime reads the same bits (src/serialization/protobuf/descriptor.ts). */
const FLAG = { repeated: 1, map: 2, pointer: 4, omitEmpty: 8, omitZero: 16, inline: 32 };

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const APIEXT = 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions';

/**
 * Messages whose Go types marshal JSON by hand (MarshalJSON), with the converter the runtime uses.
 * Their fields keep their Protobuf names, since no Go JSON tag applies to them.
 */
const SPECIAL = {
  [`${META}.Time`]: 'time',
  [`${META}.MicroTime`]: 'microTime',
  [`${META}.FieldsV1`]: 'fieldsV1',
  'k8s.io.apimachinery.pkg.runtime.RawExtension': 'rawExtension',
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': 'intOrString',
  'k8s.io.apimachinery.pkg.api.resource.Quantity': 'quantity',
  [`${APIEXT}.v1.JSON`]: 'json',
  [`${APIEXT}.v1beta1.JSON`]: 'json',
  [`${APIEXT}.v1.JSONSchemaPropsOrBool`]: 'schemaOrBool',
  [`${APIEXT}.v1beta1.JSONSchemaPropsOrBool`]: 'schemaOrBool',
  [`${APIEXT}.v1.JSONSchemaPropsOrArray`]: 'schemaOrArray',
  [`${APIEXT}.v1beta1.JSONSchemaPropsOrArray`]: 'schemaOrArray',
  [`${APIEXT}.v1.JSONSchemaPropsOrStringArray`]: 'schemaOrStringArray',
  [`${APIEXT}.v1beta1.JSONSchemaPropsOrStringArray`]: 'schemaOrStringArray',
};

/**
 * Kinds of k8s.io/apimachinery's meta/v1 that upstream registers in every group-version
 * (metav1.AddToGroupVersion: the watch event and the option types) or as unversioned types.
 */
const SHARED_KINDS = [
  'APIGroup', 'APIGroupList', 'APIResourceList', 'APIVersions', 'CreateOptions', 'DeleteOptions',
  'GetOptions', 'ListOptions', 'PatchOptions', 'Status', 'UpdateOptions', 'WatchEvent',
];

/**
 * The meta.k8s.io group (metav1.AddMetaToScheme and its v1beta1 twin). Table and TableOptions have
 * no Protobuf form upstream, so they are not here.
 */
const META_GROUP_VERSIONS = {
  'meta.k8s.io/v1': {
    PartialObjectMetadata: `${META}.PartialObjectMetadata`,
    PartialObjectMetadataList: `${META}.PartialObjectMetadataList`,
  },
  'meta.k8s.io/v1beta1': {
    PartialObjectMetadata: `${META}.PartialObjectMetadata`,
    PartialObjectMetadataList: 'k8s.io.apimachinery.pkg.apis.meta.v1beta1.PartialObjectMetadataList',
  },
};

const SCALARS = new Set(['string', 'int32', 'int64', 'bool', 'bytes', 'double']);

function main() {
  const args = process.argv.slice(2);
  const option = (name, env) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : process.env[env];
  };
  const referenceDir = resolve(option('--reference', 'CAPSTAN_REFERENCE_DIR') ?? join(repoRoot, '../shared/reference'));
  const goSrc = option('--go-src', 'CAPSTAN_K8S_GO_SRC');
  if (!goSrc || !existsSync(join(goSrc, 'apimachinery'))) {
    console.error('--go-src <dir> is required: see the header of scripts/generate-protobuf.mjs');
    process.exit(2);
  }
  const descriptorPath = join(referenceDir, 'protobuf/k8s-1.35-descriptor.json');
  const served = servedGroupVersions(join(referenceDir, 'openapi/1.35'));
  const content = generate(JSON.parse(readFileSync(descriptorPath, 'utf8')), resolve(goSrc), served);
  if (args.includes('--check')) {
    if (!existsSync(outFile) || readFileSync(outFile, 'utf8') !== content) {
      console.error('stale generated file (run node scripts/generate-protobuf.mjs): ' + outFile);
      process.exit(1);
    }
    return;
  }
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, content);
  console.log(`wrote ${outFile} (${content.length} bytes)`);
}

/**
 * The group-versions upstream 1.35 can serve (enabled by default or not): those with an OpenAPI
 * document, plus the discovery documents' group, which has none. Older versions that upstream no
 * longer serves (extensions/v1beta1, apps/v1beta2, ...) are left out of the descriptor.
 */
function servedGroupVersions(openApiDir) {
  const served = new Set(['apidiscovery.k8s.io/v2']);
  for (const file of readdirSync(join(openApiDir, 'api'))) served.add(file.replace(/\.json$/, ''));
  for (const group of readdirSync(join(openApiDir, 'apis'))) {
    for (const file of readdirSync(join(openApiDir, 'apis', group))) served.add(`${group}/${file.replace(/\.json$/, '')}`);
  }
  return served;
}

/** Returns the descriptor file's text. */
export function generate(descriptor, goSrc, served) {
  const protoMessages = flattenMessages(descriptor);
  const goPackages = new Map();
  const goPackage = (pkg) => {
    if (!goPackages.has(pkg)) goPackages.set(pkg, readGoPackage(goDirOf(goSrc, pkg)));
    return goPackages.get(pkg);
  };

  const apiVersions = collectApiVersions(goSrc, protoMessages, served);
  const roots = [
    ...Object.values(apiVersions).flatMap((kinds) => Object.values(kinds)),
    ...SHARED_KINDS.map((kind) => `${META}.${kind}`),
  ];
  const reachable = reachableMessages(roots, protoMessages);

  const messages = [...reachable].sort().map((name) => compileMessage(name, protoMessages.get(name), goPackage));
  const index = new Map(messages.map((m, i) => [m.name, i]));
  const out = {
    messages: messages.map((m) => {
      const entry = { name: m.name };
      if (m.special) entry.special = m.special;
      if (m.list) entry.list = true;
      entry.fields = m.fields.map((f) => [f.json, f.number, SCALARS.has(f.type) ? f.type : index.get(f.type), f.flags]);
      return entry;
    }),
    sharedKinds: Object.fromEntries(SHARED_KINDS.map((kind) => [kind, index.get(`${META}.${kind}`)])),
    apiVersions: Object.fromEntries(
      Object.keys(apiVersions).sort().map((gv) => [
        gv,
        Object.fromEntries(Object.keys(apiVersions[gv]).sort().map((kind) => [kind, index.get(apiVersions[gv][kind])])),
      ]),
    ),
  };
  return serialize(out);
}

/** One line per message keeps the file diffable without making it large. */
function serialize(out) {
  const lines = ['{', '"messages": ['];
  out.messages.forEach((m, i) => lines.push(JSON.stringify(m) + (i < out.messages.length - 1 ? ',' : '')));
  lines.push('],');
  lines.push(`"sharedKinds": ${JSON.stringify(out.sharedKinds)},`);
  lines.push('"apiVersions": {');
  const gvs = Object.entries(out.apiVersions);
  gvs.forEach(([gv, kinds], i) => lines.push(`${JSON.stringify(gv)}: ${JSON.stringify(kinds)}` + (i < gvs.length - 1 ? ',' : '')));
  lines.push('}', '}', '');
  return lines.join('\n');
}

/** Every message of the descriptor by full name (no leading dot), fields with resolved type names. */
function flattenMessages(descriptor) {
  const out = new Map();
  const walk = (node, prefix) => {
    for (const [name, child] of Object.entries(node.nested ?? {})) {
      const full = prefix ? `${prefix}.${name}` : name;
      if (child.fields) out.set(full, { pkg: prefix, fields: child.fields });
      if (child.values) throw new Error(`unexpected enum ${full}`);
      walk(child, full);
    }
  };
  walk(descriptor, '');
  for (const [name, message] of out) {
    for (const [fieldName, field] of Object.entries(message.fields)) {
      if (field.keyType !== undefined && field.keyType !== 'string') throw new Error(`${name}.${fieldName}: map key ${field.keyType}`);
      if (SCALARS.has(field.type)) continue;
      field.resolved = resolveType(field.type, message.pkg, out, `${name}.${fieldName}`);
    }
  }
  return out;
}

/** Protobuf name resolution: absolute (leading dot) or relative to the enclosing package. */
function resolveType(type, pkg, messages, where) {
  if (type.startsWith('.')) {
    if (messages.has(type.slice(1))) return type.slice(1);
  } else {
    const parts = pkg.split('.');
    for (let i = parts.length; i >= 0; i--) {
      const candidate = [...parts.slice(0, i), type].join('.');
      if (messages.has(candidate)) return candidate;
    }
  }
  throw new Error(`${where}: unknown type ${type}`);
}

function reachableMessages(roots, protoMessages) {
  const seen = new Set();
  const stack = [...roots];
  while (stack.length > 0) {
    const name = stack.pop();
    if (seen.has(name)) continue;
    const message = protoMessages.get(name);
    if (!message) throw new Error(`no message ${name}`);
    seen.add(name);
    for (const field of Object.values(message.fields)) if (field.resolved) stack.push(field.resolved);
  }
  return seen;
}

/** The Go source folder of a Protobuf package. */
function goDirOf(goSrc, pkg) {
  const parts = pkg.split('.');
  if (parts[0] !== 'k8s' || parts[1] !== 'io') throw new Error(`unexpected package ${pkg}`);
  const module = { api: 'api', apimachinery: 'apimachinery', apiextensions_apiserver: 'apiextensions-apiserver' }[parts[2]];
  if (!module) throw new Error(`no Go module for package ${pkg}`);
  return join(goSrc, module, ...parts.slice(3));
}

/** A message's fields in Go declaration order, with the flags of their Go struct fields. */
function compileMessage(name, message, goPackage) {
  const protoFields = Object.entries(message.fields).map(([protoName, f]) => ({
    protoName,
    number: f.id,
    type: f.resolved ?? f.type,
    repeated: f.rule === 'repeated',
    map: f.keyType !== undefined,
  }));
  const special = SPECIAL[name];
  if (special) {
    return { name, special, fields: protoFields.map((f) => ({ json: f.protoName, number: f.number, type: f.type, flags: baseFlags(f) })) };
  }
  const shortName = name.slice(message.pkg.length + 1);
  const goType = resolveGoType(goPackage(message.pkg), shortName, goPackage);
  if (!goType) throw new Error(`no Go type for ${name}`);
  if (goType.kind === 'slice') {
    if (protoFields.length !== 1 || !protoFields[0].repeated) throw new Error(`${name}: a Go slice type needs one repeated field`);
    const f = protoFields[0];
    return { name, list: true, fields: [{ json: f.protoName, number: f.number, type: f.type, flags: baseFlags(f) }] };
  }
  if (goType.kind !== 'struct') throw new Error(`${name}: Go type is a ${goType.kind}`);
  // A type that writes its own JSON needs a converter at run time (SPECIAL); its struct tags
  // would describe the wrong JSON.
  if (goType.marshalsJson) throw new Error(`${name}: Go type has MarshalJSON but no converter`);
  const byNumber = new Map(protoFields.map((f) => [f.number, f]));
  const fields = [];
  for (const goField of goType.fields) {
    const f = byNumber.get(goField.number);
    if (!f) throw new Error(`${name}: Go field ${goField.name} has number ${goField.number}, not in the descriptor`);
    byNumber.delete(goField.number);
    if (goField.jsonName === '-') throw new Error(`${name}.${goField.name}: hidden from JSON but not a special type`);
    let flags = baseFlags(f);
    if (goField.pointer) flags |= FLAG.pointer;
    if (goField.omitEmpty) flags |= FLAG.omitEmpty;
    if (goField.omitZero) {
      // The runtime knows the zero value of the hand-marshalled time types only; anything else with
      // omitzero needs a look before it is supported.
      const zeroKnown = ['time', 'microTime'].includes(SPECIAL[f.type]) || (SCALARS.has(f.type) && goField.omitEmpty);
      if (!zeroKnown) throw new Error(`${name}.${goField.name}: omitzero on ${f.type}`);
      flags |= FLAG.omitZero;
    }
    if (goField.inline) {
      if (SCALARS.has(f.type) || f.repeated || goField.pointer) throw new Error(`${name}.${goField.name}: unexpected inline field`);
      flags |= FLAG.inline;
    }
    fields.push({ json: goField.inline ? '' : goField.jsonName, number: f.number, type: f.type, flags });
  }
  if (byNumber.size > 0) throw new Error(`${name}: fields without Go field: ${[...byNumber.values()].map((f) => f.protoName)}`);
  return { name, fields };
}

/** Follows definitions such as `type List metav1.List` to the struct they copy. */
function resolveGoType(types, name, goPackage) {
  const type = types.get(name);
  if (type?.kind !== 'defined') return type;
  const pkg = goPackageOfImport(type.importPath);
  return resolveGoType(goPackage(pkg), type.name, goPackage);
}

/** The Protobuf package name of a Go import path (k8s.io/api/core/v1 -> k8s.io.api.core.v1). */
function goPackageOfImport(importPath) {
  const [host, module, ...rest] = importPath.split('/');
  const protoModule = { api: 'api', apimachinery: 'apimachinery', 'apiextensions-apiserver': 'apiextensions_apiserver' }[module];
  if (host !== 'k8s.io' || !protoModule) throw new Error(`unexpected import ${importPath}`);
  return ['k8s', 'io', protoModule, ...rest].join('.');
}

function baseFlags(f) {
  return (f.repeated && !f.map ? FLAG.repeated : 0) | (f.map ? FLAG.map : 0);
}

/**
 * The named types of one Go package: structs with their Protobuf-tagged fields in declaration
 * order, and other named types by kind (slice, map, other).
 */
function readGoPackage(dir) {
  const types = new Map();
  const marshalsJson = new Set();
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith('.go') || file.endsWith('_test.go')) continue;
    const source = readFileSync(join(dir, file), 'utf8');
    const imports = new Map();
    for (const [, alias, path] of source.matchAll(/^\s*(\w+)?\s*"(k8s\.io\/[^"]+)"$/gm)) {
      imports.set(alias ?? path.split('/').pop(), path);
    }
    for (const [, name] of source.matchAll(/^func \(\w+ \*?(\w+)\) MarshalJSON\(/gm)) marshalsJson.add(name);
    for (const match of source.matchAll(/^type (\w+) (.*)$/gm)) {
      const [, name, rest] = match;
      const defined = /^(\w+)\.(\w+)$/.exec(rest);
      if (defined && imports.has(defined[1])) {
        types.set(name, { kind: 'defined', importPath: imports.get(defined[1]), name: defined[2] });
      } else if (rest === 'struct{}') {
        types.set(name, { kind: 'struct', fields: [] });
      } else if (rest.startsWith('struct {')) {
        const body = source.slice(match.index + match[0].length, source.indexOf('\n}', match.index));
        types.set(name, { kind: 'struct', fields: parseStructFields(body, `${dir}:${name}`) });
      } else if (rest.startsWith('[]')) {
        types.set(name, { kind: 'slice' });
      } else if (!types.has(name)) {
        types.set(name, { kind: rest.startsWith('map[') ? 'map' : 'other' });
      }
    }
  }
  for (const name of marshalsJson) if (types.get(name)?.kind === 'struct') types.get(name).marshalsJson = true;
  return types;
}

function parseStructFields(body, where) {
  const fields = [];
  for (const rawLine of body.split('\n')) {
    const line = rawLine.trim();
    if (line.startsWith('//') || !line.includes('`')) continue;
    const tags = line.slice(line.indexOf('`') + 1, line.lastIndexOf('`'));
    const proto = /(?:^|\s)protobuf:"([^"]*)"/.exec(tags);
    if (!proto || proto[1] === '-') continue;
    const number = Number(proto[1].split(',')[1]);
    if (!Number.isInteger(number)) throw new Error(`${where}: cannot read ${line}`);
    const decl = line.slice(0, line.indexOf('`')).trim().split(/\s+/);
    const embedded = decl.length === 1;
    const goType = embedded ? decl[0] : decl[1];
    const goName = embedded ? goType.replace(/^\*/, '').split('.').pop() : decl[0];
    const json = /(?:^|\s)json:"([^"]*)"/.exec(tags);
    const [jsonName, ...options] = json ? json[1].split(',') : [goName];
    fields.push({
      name: goName,
      number,
      jsonName: jsonName === '' && !options.includes('inline') ? goName : jsonName,
      pointer: goType.startsWith('*'),
      omitEmpty: options.includes('omitempty'),
      omitZero: options.includes('omitzero'),
      inline: options.includes('inline'),
    });
  }
  return fields;
}

/** apiVersion -> kind -> message, from each package's register.go, plus the meta.k8s.io group. */
function collectApiVersions(goSrc, protoMessages, served) {
  const out = {};
  const packages = new Set([...protoMessages.values()].map((m) => m.pkg));
  for (const pkg of [...packages].sort()) {
    if (!/^k8s\.io\.(api\.|apiextensions_apiserver\.)/.test(pkg)) continue;
    const register = join(goDirOf(goSrc, pkg), 'register.go');
    const source = readFileSync(register, 'utf8');
    const group = /const GroupName = "([^"]*)"/.exec(source)?.[1];
    const version = /SchemeGroupVersion = schema\.GroupVersion\{Group: GroupName, Version: "([^"]+)"\}/.exec(source)?.[1];
    if (group === undefined || !version) throw new Error(`${register}: no group or version`);
    const gv = group === '' ? version : `${group}/${version}`;
    if (!served.has(gv)) continue;
    const kinds = {};
    const known = /AddKnownTypes\(SchemeGroupVersion,([^)]*)\)/g;
    for (const call of source.matchAll(known)) {
      for (const [, kind] of call[1].matchAll(/&(\w+)\{\}/g)) {
        const message = `${pkg}.${kind}`;
        if (!protoMessages.has(message)) throw new Error(`${gv} ${kind}: no message ${message}`);
        kinds[kind] = message;
      }
    }
    if (Object.keys(kinds).length === 0) throw new Error(`${register}: no kinds`);
    out[gv] = kinds;
  }
  return { ...out, ...META_GROUP_VERSIONS };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
