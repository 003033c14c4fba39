/**
 * The origins --cors-allowed-origins lets in: regular expressions in Go's syntax, matched anywhere
 * in the Origin header (Go's MatchString), as upstream matches them.
 */

/**
 * A Go (RE2) expression as a JavaScript one. The common syntax is shared; Go's spellings that
 * JavaScript lacks are rewritten: a leading (?i), (?P<name>, \A and \z. Throws, with
 * JavaScript's words, for an expression it cannot compile.
 */
export function compileGoRegexp(pattern: string): RegExp {
  const caseless = pattern.startsWith('(?i)');
  const source = (caseless ? pattern.slice(4) : pattern)
    .replace(/\(\?P</g, '(?<')
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$');
  return new RegExp(source, caseless ? 'i' : '');
}

/**
 * Why upstream refuses an allowed-origin expression, or undefined. It must pin the host at both
 * ends, so that `example.com` cannot let in `example.com.evil.net` (CVE-2022-1996): at the start
 * with ^ or the // before the host, at the end with $ or the : before a port.
 */
export function originPatternProblem(pattern: string): string | undefined {
  try {
    compileGoRegexp(pattern);
  } catch (err) {
    return `error parsing regexp: ${(err as Error).message}`;
  }
  const pinsStart = pattern.includes('^') || pattern.includes('//');
  const pinsEnd = pattern.includes('$') || pattern.includes(':');
  return pinsStart && pinsEnd ? undefined : 'regular expression does not pin to start/end of host';
}
