/**
 * How the namespace plugins find a namespace: as the watch cache holds it (almost always), else by
 * reading it, first from the cache and then consistently, so that a namespace created a moment ago
 * is found.
 */
import type { KubeObject } from '../registry/object.js';

/** Reads a namespace: first as the cache has it, then (when absent) consistently. */
export type NamespaceReader = (name: string, consistent: boolean) => Promise<KubeObject | undefined>;

/** The namespace as the cache has it now, or undefined when only a read can tell. */
export type CachedNamespace = (name: string) => KubeObject | undefined;

/** The namespace, or undefined when it does not exist; synchronous when the cache holds it. */
export type NamespaceLookup = (name: string) => KubeObject | Promise<KubeObject | undefined>;

/** A lookup from the cache's view and a reader; the cache is only a shortcut, never the last word. */
export function namespaceLookup(read: NamespaceReader, cached: CachedNamespace = () => undefined): NamespaceLookup {
  return (name) => cached(name) ?? readTwice(read, name);
}

async function readTwice(read: NamespaceReader, name: string): Promise<KubeObject | undefined> {
  return (await read(name, false)) ?? (await read(name, true));
}
