// What must be forgotten at sign-out, registered by the parts that hold it: the signed-in screens'
// chunk (app/signed-in.tsx) is not loaded on the sign-in page, so the app cannot import it.
const handlers = new Set<() => void>();

/** Runs `handler` at every sign-out. */
export function onSignOut(handler: () => void): void {
  handlers.add(handler);
}

/** The session ended: every registered part forgets its data. */
export function signedOut(): void {
  for (const handler of handlers) handler();
}
