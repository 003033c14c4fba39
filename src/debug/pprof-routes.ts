/**
 * /debug/pprof/ (with --profiling, on by default, as upstream): the profiles of this server, at the
 * paths and in the format of Go's net/http/pprof, so that what points at an upstream server's
 * profiling endpoint (`go tool pprof https://.../debug/pprof/profile`, `kubectl get --raw`) works
 * here. The requests go through authentication and authorization like any other non-resource path.
 *
 * Served: the index, `profile` (the main thread's CPU time) and `heap` (the live sampled objects).
 * Go's other runtime profiles (goroutine, block, mutex, ...) and `symbol` describe a Go process;
 * they answer 404 "Unknown profile", as Go answers for a profile it does not have.
 */
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { INT64_MAX, INT64_MIN, parseGoInt } from '../serialization/go-int.js';
import type { Handler, RequestContext } from '../server/request-context.js';
import { LONGEST_TIMER_MS } from '../util/long-timeout.js';
import type { RouteTable } from '../server/router.js';
import { writeBody, writeText } from '../server/write-response.js';
import { CPU_SAMPLING_INTERVAL_US, HEAP_SAMPLING_INTERVAL_BYTES, type Profilers } from './profilers.js';

const INDEX_PATH = '/debug/pprof/';
/** Go's default when `seconds` is absent, not a whole number, or not positive. */
const DEFAULT_SECONDS = 30;
/** The longest recording one Node timer can wait for (util/sleep.ts waits with one). */
const MAX_SECONDS = Math.floor(LONGEST_TIMER_MS / 1000);

const compress = promisify(gzip);

/** Headers Go's pprof handlers set on every answer. */
const NO_SNIFF = { 'X-Content-Type-Options': 'nosniff' } as const;
/** Go's pprof marks its error answers so that its tool can print them as they are. */
const ERROR_HEADERS = { ...NO_SNIFF, 'X-Go-Pprof': '1' } as const;

/** Registers the profiling paths, served by `profilers`. */
export function installProfiling(routes: RouteTable, profilers: Profilers): void {
  routes.add(INDEX_PATH, indexHandler);
  routes.add(`${INDEX_PATH}profile`, profileHandler(profilers));
  routes.add(`${INDEX_PATH}heap`, heapHandler(profilers));
  routes.addPrefix(INDEX_PATH, unknownProfileHandler);
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
<tr><td><a href="heap">heap</a></td><td>the live objects among those sampled (one per ${HEAP_SAMPLING_INTERVAL_BYTES / 1024} KiB allocated on average, from a second after the server became ready), with the stacks that allocated them; <code>gc=1</code> collects garbage first</td></tr>
<tr><td><a href="profile?seconds=${DEFAULT_SECONDS}">profile</a></td><td>the main thread's CPU time, sampled every ${CPU_SAMPLING_INTERVAL_US / 1000} ms for <code>seconds</code> seconds (default ${DEFAULT_SECONDS})</td></tr>
</table>
<p>Both are gzipped pprof Protobuf: open them with <code>go tool pprof</code> or speedscope.</p>
</body>
</html>
`;

const indexHandler: Handler = async (ctx) => {
  writeBody(ctx, 200, 'text/html; charset=utf-8', INDEX_HTML, NO_SNIFF);
};

const unknownProfileHandler: Handler = async (ctx) => {
  writeText(ctx, 404, 'Unknown profile\n', ERROR_HEADERS);
};

function profileHandler(profilers: Profilers): Handler {
  return async (ctx) => {
    const seconds = secondsOf(ctx.query.get('seconds'));
    const { cpu, encodeCpuProfile, ProfilerBusyError } = await profilers.load();
    let recording;
    try {
      recording = await cpu.record(seconds * 1000, ctx.signal);
    } catch (err) {
      if (!(err instanceof ProfilerBusyError)) throw err;
      writeText(ctx, 500, `Could not enable CPU profiling: ${err.message}\n`, ERROR_HEADERS);
      return;
    }
    const encoded = encodeCpuProfile(recording.profile, { startedAtMs: recording.startedAtMs, intervalUs: CPU_SAMPLING_INTERVAL_US });
    await sendProfile(ctx, 'profile', encoded);
  };
}

function heapHandler(profilers: Profilers): Handler {
  return async (ctx) => {
    // Go's delta profile (?seconds) and legacy text form (?debug) are not written here.
    if (ctx.query.has('seconds')) return writeText(ctx, 400, 'the heap profile has no delta form here: ask without seconds\n', ERROR_HEADERS);
    if (atoi(ctx.query.get('debug')) !== 0) return writeText(ctx, 400, 'the heap profile is written only as pprof Protobuf here: ask without debug\n', ERROR_HEADERS);
    const { heap, encodeHeapProfile } = await profilers.load();
    // Started once the server is ready (Server.start); a request before that starts it.
    await profilers.startHeapSampling();
    const sampled = await heap.read(atoi(ctx.query.get('gc')) > 0);
    await sendProfile(ctx, 'heap', encodeHeapProfile(sampled, { takenAtMs: Date.now(), intervalBytes: heap.intervalBytes }));
  };
}

/** A profile as Go sends one: gzipped, as an attachment named after the profile. */
async function sendProfile(ctx: RequestContext, name: string, encoded: Uint8Array): Promise<void> {
  writeBody(ctx, 200, 'application/octet-stream', await compress(encoded), { ...NO_SNIFF, 'Content-Disposition': `attachment; filename="${name}"` });
}

/** A parameter as Go's pprof reads `gc` and `debug`: strconv.Atoi, its error ignored (0 when absent). */
function atoi(value: string | null): number {
  return value === null ? 0 : Number(parseGoInt(value, 'Atoi', INT64_MIN, INT64_MAX).value);
}

/** The `seconds` parameter as Go reads it: a 64-bit whole number, else (or when not positive) 30. */
export function secondsOf(value: string | null): number {
  const seconds = value === null ? undefined : parseGoInt(value, 'ParseInt', INT64_MIN, INT64_MAX);
  if (seconds === undefined || seconds.error !== undefined || seconds.value <= 0n) return DEFAULT_SECONDS;
  return seconds.value > BigInt(MAX_SECONDS) ? MAX_SECONDS : Number(seconds.value);
}
