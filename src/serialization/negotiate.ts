/**
 * Response content negotiation, as upstream's (k8s.io/apiserver endpoints/handlers/negotiation):
 * the first Accept clause, in preference order, that names a codec the endpoint offers and asks for
 * a representation the endpoint can produce wins. `as`/`g`/`v` parameters ask for a conversion
 * (Table, PartialObjectMetadata, PartialObjectMetadataList in meta.k8s.io or meta.cluster.io, v1 or
 * v1beta1), `pretty=1` for indented output, `stream=watch` names the streaming form.
 */
import { ApiError, notAcceptable } from '../api/errors.js';
import type { Codec, CodecRegistry } from './codec.js';
import { parseAccept } from './media-type.js';
import type { AcceptClause } from './media-type.js';

export type Representation = 'object' | 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';

/** The API groups clients name for conversions: upstream's spelling and the spec's. */
export const META_GROUPS: readonly string[] = ['meta.k8s.io', 'meta.cluster.io'];
const META_VERSIONS: readonly string[] = ['v1', 'v1beta1'];
/** Tables are served in these encodings only, as upstream. */
const TABLE_MEDIA_TYPES: readonly string[] = ['application/json', 'application/yaml'];

/** What an endpoint can serve. */
export interface OutputRestrictions {
  /** The endpoint converts to Table (upstream: every type with a table convertor). Default true. */
  readonly table?: boolean;
  /** The endpoint serves PartialObjectMetadata(List). Default true. */
  readonly partialObjectMetadata?: boolean;
  /**
   * Media types the endpoint serves its objects in without conversion (custom resources: no
   * Protobuf). Default: every codec of the registry.
   */
  readonly mediaTypes?: readonly string[];
  /** A watch: the chosen codec must be able to frame an event stream. */
  readonly stream?: boolean;
}

export interface NegotiatedOutput {
  readonly codec: Codec;
  /** The Content-Type of the response: the codec's media type, in the client's spelling. */
  readonly contentType: string;
  readonly representation: Representation;
  /** For conversions: the group and version exactly as the client spelled them. */
  readonly target?: { readonly group: string; readonly version: string };
  /** `pretty=1` was among the clause's parameters. */
  readonly pretty: boolean;
}

interface Conversion {
  kind?: string;
  group?: string;
  version?: string;
}

function conversionOf(params: ReadonlyMap<string, string>): Conversion | undefined {
  if (!params.has('as') && !params.has('g') && !params.has('v')) return undefined;
  return { kind: params.get('as'), group: params.get('g'), version: params.get('v') };
}

function representationOf(conv: Conversion, mediaType: string, r: OutputRestrictions): Representation | undefined {
  if (!META_GROUPS.includes(conv.group ?? '') || !META_VERSIONS.includes(conv.version ?? '')) return undefined;
  switch (conv.kind) {
    case 'Table':
      return r.table !== false && TABLE_MEDIA_TYPES.includes(mediaType) ? 'Table' : undefined;
    case 'PartialObjectMetadata':
    case 'PartialObjectMetadataList':
      return r.partialObjectMetadata !== false ? conv.kind : undefined;
    default:
      return undefined;
  }
}

function tryClause(clause: AcceptClause, codec: Codec, r: OutputRestrictions): NegotiatedOutput | undefined {
  const canonical = codec.mediaTypes[0]!;
  const stream = clause.params.get('stream');
  if (stream !== undefined && stream !== '' && (codec.stream === undefined || stream !== 'watch')) return undefined;
  // Upstream serves no alternative server versions for generic output.
  if ((clause.params.get('sv') ?? '') !== '') return undefined;
  const conv = conversionOf(clause.params);
  let representation: Representation = 'object';
  if (conv === undefined) {
    if (r.mediaTypes !== undefined && !codec.mediaTypes.some((t) => r.mediaTypes!.includes(t))) return undefined;
  } else {
    const rep = representationOf(conv, canonical, r);
    if (rep === undefined) return undefined;
    representation = rep;
  }
  const spelled = `${clause.type}/${clause.subtype}`;
  return {
    codec,
    contentType: codec.mediaTypes.includes(spelled) ? spelled : canonical,
    representation,
    ...(conv !== undefined ? { target: { group: conv.group!, version: conv.version! } } : {}),
    pretty: clause.params.get('pretty') === '1',
  };
}

function matches(clause: AcceptClause, mediaType: string): boolean {
  if (clause.type === '*') return clause.subtype === '*';
  const [type, subtype] = mediaType.split('/') as [string, string];
  return clause.type === type && (clause.subtype === '*' || clause.subtype === subtype);
}

function firstMatch(accept: string, registry: CodecRegistry, r: OutputRestrictions): NegotiatedOutput | undefined {
  for (const clause of parseAccept(accept)) {
    for (const codec of registry.codecs) {
      if (!codec.mediaTypes.some((t) => matches(clause, t))) continue;
      const result = tryClause(clause, codec, r);
      if (result !== undefined) return result;
    }
  }
  return undefined;
}

function acceptedError(types: readonly string[]): ApiError {
  return notAcceptable(`only the following media types are accepted: ${types.join(', ')}`);
}

/**
 * Picks the response encoding and representation for an Accept header (absent or empty: the
 * registry's preferred codec, the object itself). Throws a 406 NotAcceptable ApiError, with
 * upstream's message listing the media types on offer, when no clause can be served, or when a
 * watch asks for an encoding that cannot be streamed.
 */
export function negotiateOutput(accept: string | undefined, registry: CodecRegistry, restrictions: OutputRestrictions = {}): NegotiatedOutput {
  const key = accept ?? '';
  let byRestrictions = memos.get(registry);
  if (byRestrictions === undefined) memos.set(registry, (byRestrictions = new Map()));
  const restrictionsAs = restrictionsKey(restrictions);
  let memo = byRestrictions.get(restrictionsAs);
  if (memo === undefined) byRestrictions.set(restrictionsAs, (memo = new Map()));
  const known = memo.get(key);
  if (known !== undefined) return known;
  const chosen =
    accept === undefined || accept.trim() === ''
      ? { codec: registry.preferred, contentType: registry.preferred.mediaTypes[0]!, representation: 'object' as const, pretty: false }
      : firstMatch(accept, registry, restrictions);
  if (chosen === undefined) throw acceptedError(registry.mediaTypes());
  if (restrictions.stream === true && chosen.codec.stream === undefined) throw acceptedError(registry.streamMediaTypes());
  if (memo.size < MEMO_LIMIT) memo.set(key, chosen);
  return chosen;
}

/**
 * Outcomes already negotiated, by registry, restrictions and Accept header: clients send the same
 * few Accept headers over and over, and parsing and matching one cost several microseconds of
 * every request. Outcomes are never changed by their users, so they are shared. The Accept header
 * is the client's to choose: past the limit, new ones are negotiated each time and not kept.
 */
const memos = new WeakMap<CodecRegistry, Map<string, Map<string, NegotiatedOutput>>>();
const MEMO_LIMIT = 256;

/** Most calls restrict nothing; their key is a constant, not a string built and hashed anew. */
const UNRESTRICTED = 'tp*';

function restrictionsKey(r: OutputRestrictions): string {
  if (r.table === undefined && r.partialObjectMetadata === undefined && r.stream === undefined && r.mediaTypes === undefined) return UNRESTRICTED;
  return `${r.table !== false ? 't' : ''}${r.partialObjectMetadata !== false ? 'p' : ''}${r.stream === true ? 's' : ''}${r.mediaTypes?.join(',') ?? '*'}`;
}
