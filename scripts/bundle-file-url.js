// Injected by bundle.mjs into each file of the CommonJS bundle, which defines `import.meta.url` as
// this: the file's own URL, so that modules still find the files beside them (the writer thread's
// script, generated JSON) and resolve packages from there.
export const bundleFileUrl = require('node:url').pathToFileURL(__filename).href;
