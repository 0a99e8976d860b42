/**
 * The order of program names everywhere in the terminal (`svc list`, `svc logs`, `svc ota`, the
 * dashboard): by UTF-16 code unit, as the API's names are ASCII. Not `localeCompare`: its first
 * call loads ICU's collator, ~10 ms of a ~150 ms `svc list`, and it ordered differently from the
 * dashboard.
 */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
