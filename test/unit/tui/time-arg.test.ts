import { test } from 'node:test';
import assert from 'node:assert/strict';
import { timeArg } from '../../../tui/cli/time-arg.js';
import { CliError } from '../../../tui/cli/errors.js';

const NOW = Date.UTC(2026, 10, 24, 12, 30, 45, 500);
const at = (text: string) => Number(timeArg(text, '--from', NOW));
const secs = (ms: number) => Math.floor(ms / 1000);

void test('--from/--to: Unix seconds as before, and times ago in s, m, h, d, w (also "2h ago", "-2h")', () => {
  assert.equal(timeArg(undefined, '--from', NOW), undefined);
  assert.equal(at('1700000000'), 1_700_000_000);
  assert.equal(at('0'), 0);
  assert.equal(at('90s'), secs(NOW - 90_000));
  assert.equal(at('15m'), secs(NOW - 15 * 60_000));
  assert.equal(at('2h'), secs(NOW - 2 * 3_600_000));
  assert.equal(at('2H ago'), secs(NOW - 2 * 3_600_000));
  assert.equal(at('-2h'), secs(NOW - 2 * 3_600_000));
  assert.equal(at('1.5d'), secs(NOW - 1.5 * 86_400_000));
  assert.equal(at('1w'), secs(NOW - 7 * 86_400_000));
  assert.equal(at('now'), secs(NOW));
  assert.equal(at('Now'), secs(NOW), 'any case, as the units');
});

void test('--from/--to: a date-time in UTC (Z), with an offset, or local without a zone; today and yesterday are local midnights', () => {
  assert.equal(at('2026-11-24 23:18:48Z'), Date.UTC(2026, 10, 24, 23, 18, 48) / 1000, 'as svc events prints it');
  assert.equal(at('2026-11-24T23:18:48.123Z'), Date.UTC(2026, 10, 24, 23, 18, 48) / 1000);
  assert.equal(at('2026-11-24T10:00+01:00'), Date.UTC(2026, 10, 24, 9, 0) / 1000);
  assert.equal(at('2026-11-24T10:00-0230'), Date.UTC(2026, 10, 24, 12, 30) / 1000);
  assert.equal(at('2026-11-24 10:00'), secs(new Date(2026, 10, 24, 10, 0).getTime()));
  assert.equal(at('2026-11-24'), secs(new Date(2026, 10, 24).getTime()));
  const midnight = new Date(NOW);
  midnight.setHours(0, 0, 0, 0);
  assert.equal(at('today'), secs(midnight.getTime()));
  midnight.setDate(midnight.getDate() - 1);
  assert.equal(at('yesterday'), secs(midnight.getTime()));
});

void test('--from/--to: anything else is a usage error naming the flag, the forms and the value', () => {
  for (const bad of ['', 'soon', '2h later', '2026-13-01', '2026-04-31', '2026-11-24 25:00', '24/11/2026', '5y', '2026-11-24T10:00+01:99']) {
    assert.throws(
      () => timeArg(bad, '--to', NOW),
      (err: unknown) => err instanceof CliError && err.exitCode === 2 && err.message.startsWith("--to: expected Unix seconds, a date-time (2026-11-24 10:00, local unless it ends in Z or +01:00), or a time ago (90s, 15m, 2h, 3d, 1w), got '") && err.message.endsWith(`'${bad}'`),
      bad,
    );
  }
  assert.throws(() => timeArg('1969-12-31 00:00Z', '--from', NOW), /--from: must be 1970 or later, got '1969-12-31 00:00Z'/);
  // Date takes years 0 to 99 for 1900 to 1999: year 75 is not 1975.
  assert.throws(() => timeArg('0075-06-01Z', '--from', NOW), /--from: must be 1970 or later, got '0075-06-01Z'/);
  assert.throws(() => timeArg('0075-06-01 10:00', '--from', NOW), /--from: must be 1970 or later, got '0075-06-01 10:00'/);
});
