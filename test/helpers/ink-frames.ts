/** A rendered frame without its colour codes (ink-testing-library keeps them). */
// eslint-disable-next-line no-control-regex
export const plain = (s: string | undefined): string => (s ?? '').replace(/\x1b\[[0-9;]*m/g, '');

/** Waits (polling every 10 ms) until `check` holds; fails naming `what` after `ms`. */
export async function until(what: string, check: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
