// A wait with an end: what the gateway asks of others (the acquirer, the database) is given up on
// after a while, rather than hold a request, a shopper or a health check for good.

/** The reason a call was given up on: no answer within its time. */
export class DeadlinePassed extends Error {}

/** `call`'s outcome, or DeadlinePassed once `ms` have passed without one: one promise and one timer (payments run this). */
export function withDeadline<T>(call: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new DeadlinePassed(`no answer within ${ms} ms`)), ms);
    call.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error: unknown) => (clearTimeout(timer), reject(error)),
    );
  });
}
