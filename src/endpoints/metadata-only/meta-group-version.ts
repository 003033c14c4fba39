/**
 * The group-version of the server-side conversions (Table, PartialObjectMetadata,
 * PartialObjectMetadataList). Clients name it in the Accept header as `g=meta.k8s.io` or, in the
 * spec's spelling, `g=meta.cluster.io`; the response answers in the spelling the client used.
 */

/** Which spelling of the meta group the client used. */
export type MetaSpelling = 'k8s' | 'cluster';

/** Versions of the meta group that serve the conversions. */
export type MetaVersion = 'v1' | 'v1beta1';

/** The meta group's name in one spelling. */
export function metaGroup(spelling: MetaSpelling): string {
  return spelling === 'cluster' ? 'meta.cluster.io' : 'meta.k8s.io';
}

/** `apiVersion` of a converted body, e.g. "meta.k8s.io/v1". */
export function metaApiVersion(spelling: MetaSpelling, version: MetaVersion = 'v1'): string {
  return `${metaGroup(spelling)}/${version}`;
}
