/**
 * How a watch answers requestProgress, decided by the etcd server's version.
 *
 * etcd answers a WatchProgressRequest with a response at the store's current revision. Before
 * v3.4.25 and v3.5.8 that response could overtake events still queued for the stream
 * (etcd-io/etcd#15220), so a consumer could believe it had seen a revision whose events were yet
 * to come; until v3.4.31 and v3.5.13 a request could also go unanswered (etcd-io/etcd#17566).
 * Upstream Kubernetes uses progress requests only from those versions on, and so do we:
 *
 * - 'server': send the request on the stream and pass etcd's answer on.
 * - 'verified': read the current revision R, then prove with range reads that nothing under the
 *   prefix changed between the last delivered revision and R before reporting R (see
 *   progress-verifier.ts). Correct on every version, at the price of a few reads per request.
 */
export type ProgressMode = 'server' | 'verified';

/** The oldest release of each minor line whose progress responses are ordered and answered. */
const FIXED_IN: ReadonlyMap<string, number> = new Map([
  ['3.4', 31],
  ['3.5', 13],
]);

/** The mode for an etcd version string such as "3.4.23"; 'verified' for anything unparsable. */
export function progressModeFor(version: string): ProgressMode {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  if (match === null) return 'verified';
  const [major, minor, patch] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (major !== 3) return major > 3 ? 'server' : 'verified';
  if (minor >= 6) return 'server';
  const fixedPatch = FIXED_IN.get(`${major}.${minor}`);
  return fixedPatch !== undefined && patch >= fixedPatch ? 'server' : 'verified';
}
