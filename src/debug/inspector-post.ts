/** One inspector protocol call on an in-process session, as a promise. */
import type { Session } from 'node:inspector';

export function post(session: Session, method: string, params?: object): Promise<unknown> {
  return new Promise((resolve, reject) => session.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result))));
}
