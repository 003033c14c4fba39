/**
 * Where the upstream captures the tests compare with are: copies of shared/reference's
 * discovery-1.32 and golden-1.32, committed under test/fixtures/reference so that every test runs
 * from the project's own clone.
 */
import { fileURLToPath } from 'node:url';

// Compiled tests run from dist/test/; the fixtures stay in the source tree.
export const referenceDir = fileURLToPath(new URL('../../test/fixtures/reference/', import.meta.url));
