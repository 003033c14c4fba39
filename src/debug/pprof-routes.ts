/**
 * /debug/pprof/ (with --profiling, on by default, as upstream): the profiles of this server, at the
 * paths and in the format of Go's net/http/pprof, so that what points at an upstream server's
 * profiling endpoint (`go tool pprof https://.../debug/pprof/profile`, `kubectl get --raw`) works
 * here. The requests go through authentication and authorization like any other non-resource path.
 *
 * Served: the index and `profile` (the main thread's CPU time). Go's named runtime profiles
 * (heap, goroutine, block, ...) and `symbol` describe a Go process; they answer 404 "Unknown
 * profile", as Go answers for a profile it does not have.
 */
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Handler } from '../server/request-context.js';
import type { RouteTable } from '../server/router.js';
import { writeBody, writeText } from '../server/write-response.js';

const INDEX_PATH = '/debug/pprof/';
/** V8 samples the stack every millisecond (Go's CPU profile: every 10 ms). */
const SAMPLING_INTERVAL_US = 1000;
/** Go's default when `seconds` is absent, not a whole number, or not positive. */
const DEFAULT_SECONDS = 30;
/** Beyond this a timer fires at once (Node's timers take 32-bit milliseconds). */
const MAX_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

const compress = promisify(gzip);

/** Headers Go's pprof handlers set on every answer. */
const NO_SNIFF = { 'X-Content-Type-Options': 'nosniff' } as const;
/** Go's pprof marks its error answers so that its tool can print them as they are. */
const ERROR_HEADERS = { ...NO_SNIFF, 'X-Go-Pprof': '1' } as const;

/** Registers the profiling paths. */
export function installProfiling(routes: RouteTable): void {
  routes.add(INDEX_PATH, indexHandler);
  routes.add(`${INDEX_PATH}profile`, profileHandler());
  routes.addPrefix(INDEX_PATH, unknownProfileHandler);
}

/**
 * The profiler and the encoder, loaded at the first profile: node:inspector alone takes ~4 ms to
 * load, and start time is a feature.
 */
async function loadProfiling() {
  const [recording, encoding] = await Promise.all([import('./cpu-profiler.js'), import('./pprof-cpu-profile.js')]);
  return { profiler: new recording.CpuProfiler(SAMPLING_INTERVAL_US), ProfilerBusyError: recording.ProfilerBusyError, encodeCpuProfile: encoding.encodeCpuProfile };
}

const INDEX_HTML = `<html>
<head>
<title>/debug/pprof/</title>
</head>
<body>
/debug/pprof/
<br>
<p>Profiles of this Capstan server:</p>
<table>
<thead><td>Profile</td><td>What it holds</td></thead>
<tr><td><a href="profile?seconds=${DEFAULT_SECONDS}">profile</a></td><td>the main thread's CPU time, sampled every ${SAMPLING_INTERVAL_US / 1000} ms for <code>seconds</code> seconds (default ${DEFAULT_SECONDS}), as gzipped pprof Protobuf: open it with <code>go tool pprof</code> or speedscope</td></tr>
</table>
</body>
</html>
`;

const indexHandler: Handler = async (ctx) => {
  writeBody(ctx, 200, 'text/html; charset=utf-8', INDEX_HTML, NO_SNIFF);
};

const unknownProfileHandler: Handler = async (ctx) => {
  writeText(ctx, 404, 'Unknown profile\n', ERROR_HEADERS);
};

function profileHandler(): Handler {
  // One profiler for every request, so that a second recording is refused while one runs.
  let loaded: ReturnType<typeof loadProfiling> | undefined;
  return async (ctx) => {
    const seconds = secondsOf(ctx.query.get('seconds'));
    const { profiler, encodeCpuProfile, ProfilerBusyError } = await (loaded ??= loadProfiling());
    let recording;
    try {
      recording = await profiler.record(seconds * 1000, ctx.signal);
    } catch (err) {
      if (!(err instanceof ProfilerBusyError)) throw err;
      writeText(ctx, 500, `Could not enable CPU profiling: ${err.message}\n`, ERROR_HEADERS);
      return;
    }
    const encoded = encodeCpuProfile(recording.profile, { startedAtMs: recording.startedAtMs, intervalUs: SAMPLING_INTERVAL_US });
    writeBody(ctx, 200, 'application/octet-stream', await compress(encoded), { ...NO_SNIFF, 'Content-Disposition': 'attachment; filename="profile"' });
  };
}

/** The `seconds` parameter as Go reads it: a whole number, else (or when not positive) 30. */
export function secondsOf(value: string | null): number {
  if (value === null || !/^[+-]?\d+$/.test(value)) return DEFAULT_SECONDS;
  const seconds = Number(value);
  if (seconds <= 0 || !Number.isSafeInteger(seconds)) return DEFAULT_SECONDS;
  return Math.min(seconds, MAX_SECONDS);
}
