/**
 * `npm run bench [name-filter]`: runs every registered benchmark whose name contains the filter,
 * one after the other, and lets each replace its own section of bench/RESULTS.md.
 *
 * To add a benchmark: write a module that exports a {@link Benchmark} and add it to `BENCHMARKS`.
 * Set BENCH_QUICK=1 or pass --quick for a short smoke run (numbers not meant for RESULTS.md; nothing
 * is written). Other `--name value` options go to the benchmarks (e.g. e2e's --kubeconfig PATH).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { e2eBenchmark } from './e2e/e2e-benchmark.js';
import { pairedBenchmark } from './paired/paired-benchmark.js';
import { storageBenchmark } from './storage/storage-benchmark.js';

/** One benchmark: a name for the filter and for its RESULTS.md section, and a body. */
export interface Benchmark {
  readonly name: string;
  readonly description: string;
  run(context: BenchmarkContext): Promise<void>;
}

export interface BenchmarkContext {
  readonly machine: MachineInfo;
  /** Shorter runs for a smoke test; results are then not written. */
  readonly quick: boolean;
  /** `--name value` options from the command line, by name without dashes. */
  readonly options: ReadonlyMap<string, string>;
  /** Replaces this benchmark's section of bench/RESULTS.md (markdown, without the markers). */
  writeResults(markdown: string): Promise<void>;
}

export interface MachineInfo {
  readonly cpus: number;
  readonly cpuModel: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly date: string;
}

const BENCHMARKS: readonly Benchmark[] = [storageBenchmark, e2eBenchmark, pairedBenchmark];

/** bench/RESULTS.md in the source tree (this file runs from dist/bench/). */
const RESULTS_FILE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'RESULTS.md');

function machineInfo(): MachineInfo {
  return {
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    date: new Date().toISOString().slice(0, 10),
  };
}

/**
 * Puts `body` between this benchmark's markers in RESULTS.md, replacing what was there and
 * keeping every other section; appends the section when it is new.
 */
export function replaceSection(document: string, name: string, body: string): string {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const section = `${start}\n${body.trim()}\n${end}`;
  const from = document.indexOf(start);
  const to = document.indexOf(end);
  if (from >= 0 && to > from) return document.slice(0, from) + section + document.slice(to + end.length);
  const head = document.trim() === '' ? '# Benchmark results\n\nWritten by `npm run bench`; each benchmark replaces its own section.\n' : document;
  return `${head.trimEnd()}\n\n${section}\n`;
}

async function writeSection(name: string, markdown: string): Promise<void> {
  const current = await readFile(RESULTS_FILE, 'utf8').catch(() => '');
  await writeFile(RESULTS_FILE, replaceSection(current, name, markdown));
}

/** `[filter] [--quick] [--name value]...`: the first bare word filters; every other option takes a value. */
function parseArgs(args: readonly string[]): { filter: string; quick: boolean; options: Map<string, string> } {
  const options = new Map<string, string>();
  const words: string[] = [];
  let quick = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--quick') quick = true;
    else if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      if (eq > 0) options.set(arg.slice(2, eq), arg.slice(eq + 1));
      else options.set(arg.slice(2), args[++i] ?? '');
    } else words.push(arg);
  }
  return { filter: words[0] ?? '', quick, options };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const filter = args.filter;
  const selected = BENCHMARKS.filter((b) => b.name.includes(filter));
  if (selected.length === 0) {
    console.error(`no benchmark matches "${filter}"; there are: ${BENCHMARKS.map((b) => b.name).join(', ')}`);
    process.exitCode = 1;
    return;
  }
  const quick = args.quick || process.env['BENCH_QUICK'] === '1';
  const machine = machineInfo();
  console.log(`${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB, Node ${machine.node}${quick ? ', quick run' : ''}`);
  for (const benchmark of selected) {
    console.log(`\n== ${benchmark.name}: ${benchmark.description}`);
    await benchmark.run({
      machine,
      quick,
      options: args.options,
      writeResults: (markdown) => (quick ? Promise.resolve() : writeSection(benchmark.name, markdown)),
    });
  }
}

// Run only as the entry point, so that other modules may import the types and replaceSection.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
