/**
 * What a resource request resolved to: the type, its store, the object named by the path, and the
 * endpoint layer's shared machinery (codecs, schema check, patch kinds, limits, the memo of
 * encodings and the queue of watch writes).
 */
import type { PatchAppliers } from '../patch/patchers.js';
import type { ResourceDefinition } from '../registry/catalog/resource-definition.js';
import type { ResourceStore } from '../registry/store/resource-store.js';
import type { CodecRegistry } from '../serialization/codec.js';
import type { EncodingMemo } from './encoding-memo.js';
import type { FlushQueue } from './handlers/flush-queue.js';
import type { FieldChecker } from './object-body.js';

export interface EndpointEnv {
  readonly codecs: CodecRegistry;
  readonly checkFields: FieldChecker | undefined;
  /** The patch kinds a type accepts (strategic merge patch needs the type's schema). */
  readonly patchersFor: (schema: string | undefined) => Promise<PatchAppliers>;
  /** --min-request-timeout in seconds: a watch without timeoutSeconds ends after 1-2x this. */
  readonly minRequestTimeoutSeconds: number;
  /** --delete-collection-workers. */
  readonly deleteCollectionWorkers: number;
  /** The memo of the watch cache's objects' response encodings, shared by every request. */
  readonly encodings: EncodingMemo;
  /** Runs the socket writes of every watch stream, a batch per turn of the event loop. */
  readonly watchFlushes: FlushQueue;
  /** --feature-gates as given; a gate not named (or no map at all) has its default, off for the alpha gates read here. */
  readonly featureGates?: Readonly<Record<string, boolean>>;
}

export interface RequestScope {
  readonly definition: ResourceDefinition;
  readonly store: ResourceStore;
  /** "" for cluster-scoped types and lists across namespaces. */
  readonly namespace: string;
  readonly name: string;
  readonly subresource: string;
  readonly env: EndpointEnv;
}
