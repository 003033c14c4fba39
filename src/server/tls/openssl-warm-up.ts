/**
 * OpenSSL's first TLS context in a process is slow, the next ones are not: on the machine where
 * this was measured, the first `tls.createSecureContext()` took 23-39 ms (Node 20 fills its store
 * of root certificates, and OpenSSL 3 looks up each algorithm it knows, both once per process),
 * the next ones 0.4-3 ms. The listener makes the server's first context late in startup, just
 * after the embedded store's writer thread is ready; until then the main thread mostly waits for
 * that thread. Making a throwaway context as soon as the certificates are in hand moves the
 * one-off cost into that wait.
 */
import { createSecureContext } from 'node:tls';

/** Makes and drops one TLS context. Never throws: it only saves time, and the listener reports real TLS problems. */
export function warmUpOpenSsl(): void {
  try {
    createSecureContext();
  } catch {
    // Nothing to report: the listener's own context fails the same way, with the server's error.
  }
}
