#!/usr/bin/env node
/**
 * `capstan`: parse flags, validate, start the server, print how to reach it, stop gracefully on
 * SIGTERM/SIGINT. Every user error is one line on stderr and exit code 1; never a stack trace.
 */
import { ConsoleLogger } from '../server/logger.js';
import { Capstan } from '../app/capstan.js';
import { FlagError } from './flag-values.js';
import { parseFlags, type CliCommand } from './parse-flags.js';
import { validateOptions } from './validate-options.js';
import type { ServerOptions } from './options.js';

function fail(message: string): never {
  process.stderr.write(`capstan: ${message}\n`);
  process.exit(1);
}

function parse(): CliCommand {
  try {
    return parseFlags(process.argv.slice(2));
  } catch (err) {
    if (err instanceof FlagError) fail(err.message);
    throw err;
  }
}

async function serve(options: ServerOptions): Promise<void> {
  const logger = new ConsoleLogger({ verbosity: options.verbosity });
  let capstan: Capstan;
  let info;
  try {
    // Inside the try: building the authorizer reads its files (an ABAC policy, a webhook kubeconfig) and may fail.
    capstan = new Capstan({ options, logger });
    info = await capstan.start();
  } catch (err) {
    fail(startFailure(err, options));
  }
  const server = capstan.server;
  // performance.now() counts from the process's time origin, i.e. from process start.
  const readyMs = Math.round(performance.now());
  // Before the line below: whoever waits for it may send SIGTERM at once, which would otherwise
  // still find Node's default action (exit at once, without the graceful stop).
  stopOnSignals(capstan, options.shutdownDelayMs);
  process.stdout.write(
    `Capstan serving the Kubernetes ${server.version.gitVersion} API at ${info.url} (ready in ${readyMs} ms)\n` +
      `  kubectl --kubeconfig ${info.kubeconfigPath} get namespaces\n`,
  );
}

/** A one-line reason for a failed start. */
function startFailure(err: unknown, options: ServerOptions): string {
  const e = err as NodeJS.ErrnoException;
  const where = `${options.secureServing.bindAddress}:${options.secureServing.port}`;
  if (e.syscall === 'listen' || e.syscall === 'bind') {
    if (e.code === 'EADDRINUSE') return `cannot listen on ${where}: address already in use (choose another --secure-port)`;
    if (e.code === 'EACCES') return `cannot listen on ${where}: permission denied`;
    if (e.code === 'EADDRNOTAVAIL') return `cannot listen on ${where}: --bind-address is not an address of this machine`;
  }
  // A file that cannot be read or written (data directory, certificates): its own message names it.
  if (e.code === 'ENOENT' || e.code === 'EACCES' || e.code === 'EISDIR') return `${e.message}`;
  return `failed to start: ${e instanceof Error ? e.message : String(err)}`;
}

/**
 * First SIGTERM/SIGINT: /readyz fails at once, serving continues for --shutdown-delay-duration,
 * then a graceful stop. A second signal exits immediately.
 */
function stopOnSignals(capstan: Capstan, delayMs: number): void {
  const server = capstan.server;
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    server.logger.info(`received ${signal}, shutting down`);
    server.beginShutdown();
    setTimeout(() => {
      capstan.stop().then(
        () => process.exit(0),
        (err) => {
          server.logger.error('graceful stop failed', err);
          process.exit(1);
        },
      );
    }, delayMs);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

const command = parse();
if (command.action === 'print') {
  process.stdout.write(command.text);
} else {
  const errors = validateOptions(command.options);
  if (errors.length > 0) fail(errors.join('\ncapstan: '));
  // Not awaited at the top level: the bundle is CommonJS (scripts/bundle.mjs), which has no
  // top-level await. serve() reports its own failures; anything else still ends the process.
  void serve(command.options);
}
