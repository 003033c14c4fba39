/**
 * protobufjs's wire Reader and Writer, required on first use instead of imported: loading the
 * library costs tens of milliseconds that a server should not spend at startup when no client
 * speaks Protobuf. ProtobufSchema holds the loaded module for its owner.
 */
import { createRequire } from 'node:module';
import type protobuf from 'protobufjs/minimal.js';

export type Reader = protobuf.Reader;
export type Writer = protobuf.Writer;

export interface WireRuntime {
  readonly Reader: typeof protobuf.Reader;
  readonly Writer: typeof protobuf.Writer;
}

/** Loads protobufjs's minimal build (the wire format only, no reflection or code generation). */
export function loadWireRuntime(): WireRuntime {
  return createRequire(import.meta.url)('protobufjs/minimal.js') as WireRuntime;
}
