/** What decoding needs besides the bytes and the message plan. */
export interface DecodeContext {
  /** Messages entered so far; bounded so that hostile nesting cannot exhaust the stack. */
  depth: number;
  /** Decodes a whole Protobuf object (prefix and envelope) found inside a RawExtension. */
  readonly decodeEmbedded: (bytes: Uint8Array) => Record<string, unknown>;
}

/** Deepest message nesting accepted, as the JSON decoder caps documents at 1000 levels. */
export const MAX_DEPTH = 1000;
