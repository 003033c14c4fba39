/**
 * PodLogOptions from the query of a pods/log request, decoded and validated as upstream does:
 * a value that does not parse is a 400 (the conversion's error), a parsed value out of bounds is a
 * 422 PodLogOptions Invalid (ValidatePodLogOptions, with PodLogsQuerySplitStreams off as in 1.35).
 */
import { badRequest, invalid, type FieldError } from '../../api/errors.js';
import { timeError } from '../../registry/schema/custom-decoders.js';
import { fieldForbidden, fieldInvalid, GoSyntax } from '../../validation/field-errors.js';
import { queryBool, queryInt64 } from '../../serialization/go-query-values.js';

export interface PodLogOptions {
  readonly container: string;
  readonly follow: boolean;
  readonly previous: boolean;
  readonly timestamps: boolean;
  readonly sinceSeconds?: bigint;
  /** RFC 3339; an empty or "null" sinceTime is Go's zero time, still "given". */
  readonly sinceTime?: string;
  readonly tailLines?: bigint;
  readonly limitBytes?: bigint;
  readonly stream?: string;
}

const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

/** Decodes in the conversion's field order, so the first bad field is the one reported. */
function decode(query: URLSearchParams): PodLogOptions {
  const sinceSeconds = queryInt64(query, 'sinceSeconds');
  const sinceTime = querySinceTime(query.get('sinceTime'));
  const tailLines = queryInt64(query, 'tailLines');
  const limitBytes = queryInt64(query, 'limitBytes');
  const stream = query.get('stream');
  return {
    container: query.get('container') ?? '',
    follow: queryBool(query, 'follow'),
    previous: queryBool(query, 'previous'),
    timestamps: queryBool(query, 'timestamps'),
    ...(sinceSeconds !== undefined ? { sinceSeconds } : {}),
    ...(sinceTime !== undefined ? { sinceTime } : {}),
    ...(tailLines !== undefined ? { tailLines } : {}),
    ...(limitBytes !== undefined ? { limitBytes } : {}),
    ...(stream !== null ? { stream } : {}),
  };
}

/** metav1.Time's UnmarshalQueryParameter, normalized to UTC. */
function querySinceTime(value: string | null): string | undefined {
  if (value === null) return undefined;
  if (value === '' || value === 'null') return GO_ZERO_TIME;
  const error = timeError(value, false);
  if (error !== undefined) throw badRequest(error);
  return new Date(value).toISOString().replace(/\.\d+Z$/, 'Z');
}

function validate(o: PodLogOptions): FieldError[] {
  const errors: FieldError[] = [];
  const value = (n: bigint) => new GoSyntax(String(n));
  if (o.tailLines !== undefined && o.tailLines < 0n) errors.push(fieldInvalid('tailLines', value(o.tailLines), 'must be greater than or equal to 0'));
  if (o.limitBytes !== undefined && o.limitBytes < 1n) errors.push(fieldInvalid('limitBytes', value(o.limitBytes), 'must be greater than 0'));
  if (o.sinceSeconds !== undefined && o.sinceTime !== undefined) {
    errors.push(fieldForbidden('', 'at most one of `sinceTime` or `sinceSeconds` may be specified'));
  } else if (o.sinceSeconds !== undefined && o.sinceSeconds < 1n) {
    errors.push(fieldInvalid('sinceSeconds', value(o.sinceSeconds), 'must be greater than 0'));
  }
  if (o.stream !== undefined) errors.push(fieldForbidden('stream', 'may not be specified'));
  return errors;
}

/** The options of the request for pod `name`. Throws 400 (unparsable) or 422 (invalid). */
export function podLogOptionsOf(query: URLSearchParams, name: string): PodLogOptions {
  const options = decode(query);
  const errors = validate(options);
  if (errors.length > 0) throw invalid('PodLogOptions', '', name, errors);
  return options;
}

/** The kubelet query upstream forwards the options as (url.Values.Encode: keys sorted). */
export function kubeletLogQuery(o: PodLogOptions): string {
  const params: [string, string][] = [];
  if (o.follow) params.push(['follow', 'true']);
  if (o.limitBytes !== undefined) params.push(['limitBytes', String(o.limitBytes)]);
  if (o.previous) params.push(['previous', 'true']);
  if (o.sinceSeconds !== undefined) params.push(['sinceSeconds', String(o.sinceSeconds)]);
  if (o.sinceTime !== undefined) params.push(['sinceTime', o.sinceTime]);
  if (o.tailLines !== undefined) params.push(['tailLines', String(o.tailLines)]);
  if (o.timestamps) params.push(['timestamps', 'true']);
  const encoded = new URLSearchParams(params).toString();
  return encoded === '' ? '' : `?${encoded}`;
}
