/**
 * What no field manager owns: apiVersion and kind, and the metadata the server sets. Exactly these
 * paths: `metadata` itself is unowned, `metadata.labels.x` is not.
 */
export const UNOWNED_TOP_FIELDS: readonly string[] = ['apiVersion', 'kind'];

/** Metadata the server sets (metadata itself is unowned too). */
export const SERVER_SET_METADATA: readonly string[] = ['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'];
