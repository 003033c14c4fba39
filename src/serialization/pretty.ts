/**
 * Whether a response should be indented for a human, as upstream decides: a `pretty` query value
 * decides when present (Go's strconv.ParseBool; unparsable means no), otherwise clients that are
 * people rather than programs (curl, Wget, browsers) get it. The Accept parameter `pretty=1` is
 * reported by negotiation separately and also asks for it.
 */

const TRUE_VALUES = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const HUMAN_AGENTS = ['curl', 'Wget', 'Mozilla/5.0'];

export function prettyRequested(query: URLSearchParams, userAgent: string | undefined): boolean {
  const value = query.get('pretty');
  if (value !== null && value !== '') return TRUE_VALUES.has(value);
  return HUMAN_AGENTS.some((prefix) => userAgent?.startsWith(prefix) === true);
}
