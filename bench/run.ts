/**
 * `npm run bench [name-filter]`: runs every registered benchmark whose name contains the filter,
 * one after the other, and lets each replace its own section of bench/RESULTS.md.
 *
 * To add a benchmark: write a module that exports a {@link Benchmark} and add it to `BENCHMARKS`.
 * Set BENCH_QUICK=1 for a short smoke run (numbers not meant for RESULTS.md; nothing is written).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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

const BENCHMARKS: readonly Benchmark[] = [storageBenchmark];

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

async function main(): Promise<void> {
  const filter = process.argv[2] ?? '';
  const selected = BENCHMARKS.filter((b) => b.name.includes(filter));
  if (selected.length === 0) {
    console.error(`no benchmark matches "${filter}"; there are: ${BENCHMARKS.map((b) => b.name).join(', ')}`);
    process.exitCode = 1;
    return;
  }
  const quick = process.env['BENCH_QUICK'] === '1';
  const machine = machineInfo();
  console.log(`${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB, Node ${machine.node}${quick ? ', quick run' : ''}`);
  for (const benchmark of selected) {
    console.log(`\n== ${benchmark.name}: ${benchmark.description}`);
    await benchmark.run({
      machine,
      quick,
      writeResults: (markdown) => (quick ? Promise.resolve() : writeSection(benchmark.name, markdown)),
    });
  }
}

// Run only as the entry point, so that other modules may import the types and replaceSection.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
