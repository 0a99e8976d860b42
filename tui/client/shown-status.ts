/**
 * The status a terminal shows: a removed program whose process is still stopping (`removed` in
 * the list) reads `Removing`, which fits the dashboard's column; the API keeps `Stopping`.
 */
export function shownStatus(p: { status: string; removed?: true }): string {
  return p.removed ? 'Removing' : p.status;
}
