/**
 * The sentence fragments upstream builds validation messages from
 * (k8s.io/apimachinery/pkg/util/validation). Clients show them verbatim and some tests match them,
 * so the wording, punctuation and the regex text quoted in them are exact.
 */

/** `must be no more than 63 characters`. */
export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** `must be non-empty`. */
export function emptyError(): string {
  return 'must be non-empty';
}

/**
 * `<msg> (e.g. 'my-name',  or '123-abc', regex used for validation is '<fmt>')`, or without
 * examples `<msg> (regex used for validation is '<fmt>')`. The double space before `or` is
 * upstream's.
 */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}
