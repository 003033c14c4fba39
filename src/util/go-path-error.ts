/**
 * Go's *PathError text for a failed file operation, which upstream's messages embed
 * (`open /x: no such file or directory`, `read /d: is a directory`).
 */

/** The text Go would print for `err`, met while working on `path`. */
export function goPathError(err: NodeJS.ErrnoException, path: string): string {
  if (err.code === undefined || err.syscall === undefined) return err.message;
  // libuv words a few errors differently from Go's table of errno strings.
  const words = GO_ERRNO_WORDS[err.code] ?? err.message.replace(/^[A-Z0-9]+: /, '').replace(/, \w+( '.*')?$/s, '');
  return `${err.syscall} ${path}: ${words}`;
}

const GO_ERRNO_WORDS: Readonly<Record<string, string>> = {
  EISDIR: 'is a directory',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
};
