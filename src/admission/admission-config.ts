/**
 * --admission-control-config-file: an AdmissionConfiguration (apiserver.config.k8s.io/v1 or
 * v1alpha1, apiserver.cluster.io in the spec's spelling), YAML or JSON, read as kube-apiserver 1.35
 * reads it and failing in its words. Each entry names a plugin and holds its settings inline
 * (`configuration`) or in a file (`path`, relative to this file's directory).
 *
 * Upstream also accepts the unversioned files that ImagePolicyWebhook and PodNodeSelector read
 * before AdmissionConfiguration existed: a file without apiVersion or kind (or of a kind it does not
 * know) with an `imagePolicy` or `podNodeSelectorPluginConfig` key becomes the configuration of
 * those two plugins, when enabled, by path.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { goQuote } from '../serialization/go-format.js';
import { decodeJsonOrYaml } from '../serialization/json-or-yaml.js';
import { goPathError } from '../util/go-path-error.js';
import { cannotUnmarshalField, goJsonType } from '../serialization/go-json-errors.js';
import { readTypeMeta } from '../serialization/type-meta.js';

export interface AdmissionPluginConfiguration {
  readonly name: string;
  /** A file holding the plugin's settings; absolute unless the configuration file's own path was relative. */
  readonly path: string;
  /** The plugin's settings given inline, as decoded; undefined: none (see `path`). */
  readonly configuration?: unknown;
}

export interface AdmissionConfiguration {
  readonly plugins: readonly AdmissionPluginConfiguration[];
}

/** The versions upstream's configuration scheme decodes, with the spec's spelling of the group. */
const VERSIONS: ReadonlySet<string> = new Set(
  ['apiserver.config.k8s.io', 'apiserver.cluster.io'].flatMap((group) => [`${group}/v1`, `${group}/v1alpha1`]),
);
/** Where upstream creates that scheme; its "not registered" message names it. */
const SCHEME = 'k8s.io/apiserver/pkg/server/options/admission.go:50';
/** The plugins whose unversioned (legacy) files upstream still reads. */
const LEGACY_PLUGINS: ReadonlySet<string> = new Set(['ImagePolicyWebhook', 'PodNodeSelector']);

/** A decode failure upstream tolerates for a legacy file: the apiVersion or kind is missing or unknown. */
class TypeUnknown extends Error {}

/**
 * Reads the configuration file at `path` ("" : no file, no configuration). `enabled` names the
 * plugins that run, for a legacy file. Throws an Error with upstream's message:
 * `unable to read admission control configuration from "<path>" [open <path>: ...]`, the decoder's
 * (`couldn't get version/kind; json parse error: ...`, `error converting YAML to JSON: yaml: ...`,
 * `Object 'Kind' is missing in '...'`, `no kind "X" is registered for version "v" in scheme ...`)
 * or encoding/json's for a mistyped field.
 */
export function readAdmissionConfiguration(enabled: readonly string[], path: string): AdmissionConfiguration {
  if (path === '') return { plugins: [] };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`unable to read admission control configuration from ${goQuote(path)} [${goPathError(err as NodeJS.ErrnoException, path)}]`);
  }
  const doc = decodeJsonOrYaml(text);
  try {
    checkTypeMeta(doc, text);
  } catch (err) {
    if (!(err instanceof TypeUnknown) || !isLegacyFile(doc)) throw new Error((err as Error).message);
    return { plugins: enabled.filter((name) => LEGACY_PLUGINS.has(name)).map((name) => ({ name, path })) };
  }
  return { plugins: decodePlugins((doc as { plugins?: unknown }).plugins, versionOf(doc)).map((p) => withAbsolutePath(p, path)) };
}

/** The settings of one plugin: its entry in the file, undefined when the file names it not. */
export function pluginConfiguration(config: AdmissionConfiguration, name: string): AdmissionPluginConfiguration | undefined {
  return config.plugins.find((p) => p.name === name);
}

/** Throws unless the document is an AdmissionConfiguration of a version read here. */
function checkTypeMeta(doc: unknown, text: string): void {
  const { apiVersion, kind } = readTypeMeta(doc);
  const parts = apiVersion.split('/');
  if (parts.length > 2) throw new Error(`unexpected GroupVersion string: ${apiVersion}`);
  if (!kind) throw new TypeUnknown(`Object 'Kind' is missing in '${text}'`);
  if (!parts[parts.length - 1]) throw new TypeUnknown(`Object 'apiVersion' is missing in '${text}'`);
  if (kind === 'AdmissionConfiguration' && VERSIONS.has(apiVersion)) return;
  throw new TypeUnknown(`no kind ${goQuote(kind)} is registered for version ${goQuote(apiVersion)} in scheme "${SCHEME}"`);
}

/** Whether a file upstream could not type is one of the two legacy plugin files. */
function isLegacyFile(doc: unknown): boolean {
  if (doc === null || goJsonType(doc) !== 'object') return false;
  return Object.hasOwn(doc as object, 'imagePolicy') || Object.hasOwn(doc as object, 'podNodeSelectorPluginConfig');
}

function versionOf(doc: unknown): string {
  return ((doc as { apiVersion: string }).apiVersion.split('/')[1])!;
}

/** The entries as encoding/json fills upstream's types; a mistyped value fails in Go's words. */
function decodePlugins(value: unknown, version: string): AdmissionPluginConfiguration[] {
  if (value === null || value === undefined) return [];
  const mistyped = (found: unknown, struct: string, field: string, type: string) =>
    new Error(cannotUnmarshalField(found, struct, field, type));
  if (!Array.isArray(value)) throw mistyped(value, 'AdmissionConfiguration', 'plugins', `[]${version}.AdmissionPluginConfiguration`);
  return value.map((entry: unknown) => {
    if (entry === null) return { name: '', path: '' };
    if (goJsonType(entry) !== 'object') throw mistyped(entry, 'AdmissionConfiguration', 'plugins', `${version}.AdmissionPluginConfiguration`);
    const { name, path, configuration } = entry as Record<string, unknown>;
    for (const [field, text] of [['name', name], ['path', path]] as const) {
      if (text !== undefined && text !== null && typeof text !== 'string') throw mistyped(text, 'AdmissionPluginConfiguration', `plugins.${field}`, 'string');
    }
    return { name: (name as string | null) ?? '', path: (path as string | null) ?? '', ...(configuration != null ? { configuration } : {}) };
  });
}

/** A relative `path` is relative to the configuration file's directory, as upstream resolves it. */
function withAbsolutePath(plugin: AdmissionPluginConfiguration, configFile: string): AdmissionPluginConfiguration {
  if (plugin.path === '' || isAbsolute(plugin.path)) return plugin;
  const base = dirname(configFile);
  return { ...plugin, path: join(base === '.' ? process.cwd() : base, plugin.path) };
}
