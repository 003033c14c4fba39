/**
 * Whether a command line may start a server on the embedded store, judged from its words alone,
 * before the server's code (and its flag parser) has loaded. The launcher starts the store's writer
 * thread early on this guess; a wrong guess costs only an idle thread, stopped when the store opens.
 */
const NOT_THE_EMBEDDED_STORE = /^(-h|--help|--version|--(store|etcd)-servers)(=|$)/;

export function mayServeEmbeddedStore(args: readonly string[]): boolean {
  return !args.some((arg) => NOT_THE_EMBEDDED_STORE.test(arg));
}
