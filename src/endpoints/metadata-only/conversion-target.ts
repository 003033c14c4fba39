/**
 * Reads the `as`, `g` and `v` parameters of one Accept media range, which ask the server to
 * convert the response (`application/json;as=Table;v=v1;g=meta.k8s.io`). General Accept
 * negotiation (media types, q values, fallbacks) lives in src/serialization; this only says what a
 * single range's parameters ask for.
 *
 * As upstream does, a range that names any of as/g/v but not a supported kind in meta.k8s.io (or
 * meta.cluster.io) v1/v1beta1 is not acceptable: negotiation skips it and tries the next range.
 */
import { metaGroup, type MetaSpelling, type MetaVersion } from './meta-group-version.js';

export type ConversionKind = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';

/** A supported conversion. */
export interface ConversionTarget {
  readonly kind: ConversionKind;
  /** The group as the client spelled it: "meta.k8s.io" or "meta.cluster.io". */
  readonly group: string;
  readonly version: MetaVersion;
  readonly spelling: MetaSpelling;
}

/**
 * What one media range asks for:
 * - `none`: no as/g/v parameter; serve the object itself.
 * - `conversion`: a supported conversion.
 * - `unsupported`: as/g/v name something the server cannot produce; skip this range (406 if no
 *   other range is acceptable). `reason` is for logs and error messages.
 */
export type MediaRangeConversion =
  | { readonly type: 'none' }
  | { readonly type: 'conversion'; readonly target: ConversionTarget }
  | { readonly type: 'unsupported'; readonly reason: string };

const KINDS: readonly ConversionKind[] = ['Table', 'PartialObjectMetadata', 'PartialObjectMetadataList'];
const VERSIONS: readonly MetaVersion[] = ['v1', 'v1beta1'];
const SPELLINGS: readonly MetaSpelling[] = ['k8s', 'cluster'];

/** Media range parameters, as a record or map; names are matched case-insensitively. */
export type MediaRangeParameters = Readonly<Record<string, string>> | ReadonlyMap<string, string>;

function parameter(params: MediaRangeParameters, name: string): string | undefined {
  const entries = params instanceof Map ? [...params.entries()] : Object.entries(params);
  // Parameter names are case-insensitive (RFC 9110); values of as/g/v are compared exactly, as upstream does.
  return entries.find(([key]) => key.toLowerCase() === name)?.[1];
}

/** Interprets the as/g/v parameters of one media range. Never throws. */
export function readConversionTarget(params: MediaRangeParameters): MediaRangeConversion {
  const as = parameter(params, 'as');
  const g = parameter(params, 'g');
  const v = parameter(params, 'v');
  if (as === undefined && g === undefined && v === undefined) return { type: 'none' };
  const kind = KINDS.find((k) => k === as);
  const spelling = SPELLINGS.find((s) => metaGroup(s) === g);
  const version = VERSIONS.find((candidate) => candidate === v);
  if (kind === undefined || spelling === undefined || version === undefined) {
    return { type: 'unsupported', reason: `no conversion to ${as ?? ''} in group version ${g ?? ''}/${v ?? ''}` };
  }
  return { type: 'conversion', target: { kind, group: metaGroup(spelling), version, spelling } };
}
