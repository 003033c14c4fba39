/**
 * A configuration document (an admission configuration file, a line of an ABAC policy file) read
 * as upstream's decoders read one: JSON when the text starts with `{` (after white space), else
 * YAML by Go's rules. Errors carry upstream's words, for the caller to put in its own context.
 */
import { findJsonSyntaxError } from './json-syntax.js';
import { decodeYaml, YamlSyntaxError } from './yaml-decode.js';

/** The text is neither JSON nor YAML; the message is upstream's. */
export class DocumentSyntaxError extends Error {
  override readonly name = 'DocumentSyntaxError';
}

/** The document's value (null for an empty YAML document). Throws {@link DocumentSyntaxError}. */
export function decodeJsonOrYaml(text: string): unknown {
  if (/^[ \t\r\n]*\{/.test(text)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // Go's words for the first error; JSON.parse's differ.
      const syntax = findJsonSyntaxError(Buffer.from(text, 'utf8')) ?? 'unexpected end of JSON input';
      throw new DocumentSyntaxError(`couldn't get version/kind; json parse error: ${syntax}`);
    }
  }
  try {
    return decodeYaml(Buffer.from(text, 'utf8')).value ?? null;
  } catch (err) {
    if (err instanceof YamlSyntaxError) throw new DocumentSyntaxError(`error converting YAML to JSON: ${err.message}`);
    throw err;
  }
}
