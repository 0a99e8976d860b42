/**
 * `H` in a cron field (cron-parser's Jenkins-style extension) stands for a value picked from a
 * hash: `H 3 * * *` is one fixed minute of 03:00-03:59, spreading jobs that share an hour. The
 * pick is seeded with the program's name, so it is the same at every parse: on every daemon start,
 * in validation, and in `svc export`. Unseeded, cron-parser draws it at random each time.
 */
export function cronHashSeed(expression: string, name: string): string | undefined {
  // Month and weekday names (THU, MARCH) are not hashes; an @alias has no fields.
  return !expression.trim().startsWith('@') && /H/.test(expression.replace(/[a-z]{3,}/gi, '')) ? name : undefined;
}
