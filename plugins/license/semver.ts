/** `major.minor.patch` with an optional `-prerelease`; build metadata is not accepted. */
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?$/;

export function isVersion(text: string): boolean {
  return SEMVER.test(text);
}

export function majorOf(version: string): number {
  const m = SEMVER.exec(version);
  if (!m) throw new TypeError(`not a version: ${version}`);
  return Number(m[1]);
}

/**
 * Orders two versions by SemVer 2.0 precedence: negative, zero or positive. Numbers compare
 * numerically; a prerelease sorts before its release (1.2.0-rc.1 < 1.2.0); two prereleases
 * compare identifier by identifier, numeric ones as numbers (rc.2 < rc.10) and below
 * alphanumeric ones, and a shorter list of equal identifiers first (rc < rc.1).
 */
export function compareVersions(a: string, b: string): number {
  const x = SEMVER.exec(a);
  const y = SEMVER.exec(b);
  if (!x || !y) throw new TypeError(`not a version: ${x ? b : a}`);
  for (let i = 1; i <= 3; i++) {
    const d = Number(x[i]) - Number(y[i]);
    if (d !== 0) return d;
  }
  if (x[4] === y[4]) return 0;
  if (x[4] === undefined) return 1;
  if (y[4] === undefined) return -1;
  return comparePrereleases(x[4].split('.'), y[4].split('.'));
}

const NUMERIC = /^\d+$/;

function comparePrereleases(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const p = a[i] ?? '';
    const q = b[i] ?? '';
    if (p === q) continue;
    const pn = NUMERIC.test(p);
    const qn = NUMERIC.test(q);
    if (pn && qn) return Number(p) - Number(q);
    if (pn !== qn) return pn ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return a.length - b.length;
}
