/**
 * Whether a response should be indented for a human, as upstream decides: a `pretty` query value
 * decides when present (Go's strconv.ParseBool; unparsable means no), otherwise clients that are
 * people rather than programs (curl, Wget, browsers) get it. The Accept parameter `pretty=1` is
 * reported by negotiation separately and also asks for it.
 */
import { parseGoBool } from './go-bool.js';

const HUMAN_AGENTS = ['curl', 'Wget', 'Mozilla/5.0'];

export function prettyRequested(query: URLSearchParams, userAgent: string | undefined): boolean {
  const value = query.get('pretty');
  if (value !== null && value !== '') return parseGoBool(value) ?? false;
  return HUMAN_AGENTS.some((prefix) => userAgent?.startsWith(prefix) === true);
}
