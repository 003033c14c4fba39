/**
 * Where the generated data lives, and its shape. The files are read at run time (not imported), so
 * importing this module costs nothing; the type-only references below make tsc type-check the
 * catalog file against its interface and copy both files into dist/.
 */
import { readFileSync } from 'node:fs';
import type { SubresourceDefinition, TableColumn } from './resource-definition.js';

/** One resource type as the generator writes it (group and version come from the enclosing entry). */
export interface GeneratedResource {
  readonly resource: string;
  readonly singularName: string;
  readonly kind: string;
  readonly listKind: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  // `| undefined` only because tsc widens the JSON's array elements to share optional keys.
  readonly subresources?: Readonly<Record<string, Omit<SubresourceDefinition, 'name'> | undefined>>;
  readonly schema?: string;
  readonly tableColumns?: readonly TableColumn[];
  readonly storageVersion?: string;
  readonly storageVersionHash?: string;
}

/** One group-version of the generated catalog. */
export interface GeneratedGroupVersion {
  readonly group: string;
  readonly version: string;
  /** Whether upstream 1.35 serves it without --runtime-config (see the generator). */
  readonly enabledByDefault: boolean;
  readonly resources: readonly GeneratedResource[];
}

/** The generated catalog.json: every built-in group-version in discovery order. */
export interface GeneratedCatalogFile {
  readonly groupVersions: readonly GeneratedGroupVersion[];
}

type Assert<T extends true> = T;
/** Compile-time check: the build fails when the committed catalog.json no longer fits GeneratedCatalogFile. */
export type CatalogFileConforms = Assert<
  typeof import('./generated/catalog.json', { with: { type: 'json' } }) extends GeneratedCatalogFile ? true : false
>;
/** Makes tsc copy schemas.json into dist/ beside this module; its shape is checked where it is read. */
export type SchemasFile = typeof import('./generated/schemas.json', { with: { type: 'json' } });

/** Reads one generated file (synchronously; callers memoize the result). */
export function readGeneratedText(name: 'catalog.json' | 'schemas.json'): string {
  return readFileSync(new URL(`./generated/${name}`, import.meta.url), 'utf8');
}

