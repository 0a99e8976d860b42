import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CronExpressionParser } from 'cron-parser';
import { toNomadCron, toOnCalendar } from '../../../../stacks/export/cron.js';
import { ScheduleCache } from '../../../../controllers/cron/schedule.js';
import { needSystemdAnalyze } from '../../../helpers/systemd-analyze.js';

/** Cron forms svc accepts (docs/cron.md), including the ones systemd needs two specs for. */
const EXPRESSIONS = [
  '30 2 * * *',
  '*/15 9-17 * * mon-fri',
  '0 3 1,15 * 5',
  '@weekdays',
  '@monthly',
  '30 */10 * * * *',
  '0 0 L * *',
  '0 0 * * 5L',
  '0 12 * * 1#2',
  '5,10,40 * * 1-3,6 *',
  '0 9 * * 7',
  '0 0 1,L * *',
];

const BASE = '2026-01-01 00:00:00 UTC';
const COUNT = 8;

/** The next firings systemd computes for the OnCalendar specs of an expression (merged, sorted). */
function systemdFirings(expression: string): string[] {
  const res = spawnSync('systemd-analyze', ['calendar', `--iterations=${COUNT}`, `--base-time=${BASE}`, ...toOnCalendar(expression, 'UTC')], { encoding: 'utf8' });
  assert.equal(res.status, 0, `${expression}: ${res.stderr}`);
  const times = [...res.stdout.matchAll(/(?:Next elapse|Iter\. #\d+): \w+ (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) UTC/g)].map((m) => `${m[1].replace(' ', 'T')}Z`);
  return [...new Set(times)].sort().slice(0, COUNT);
}

/** The next firings svc's own scheduler computes (cron-parser, as controllers/cron uses it). */
function cronFirings(expression: string): string[] {
  const it = CronExpressionParser.parse(expression, { currentDate: new Date('2026-01-01T00:00:00Z'), tz: 'UTC', strict: false });
  return Array.from({ length: COUNT }, () => (it.next().toISOString() ?? '').replace('.000', ''));
}

test('OnCalendar= specs fire exactly when svc’s cron would (systemd-analyze calendar vs cron-parser)', (t) => {
  if (!needSystemdAnalyze(t)) return;
  for (const expression of EXPRESSIONS) assert.deepEqual(systemdFirings(expression), cronFirings(expression), expression);
});

test('OnCalendar= specs: time zone, lists, ranges, steps, last day, nth weekday', () => {
  assert.deepEqual(toOnCalendar('*/15 9-17 * * mon-fri', 'Europe/Berlin'), ['Mon..Fri *-*-* 09..17:00/15:00 Europe/Berlin']);
  assert.deepEqual(toOnCalendar('0 3 1,15 * 5'), ['Fri *-*-* 03:00:00', '*-*-01,15 03:00:00']);
  assert.deepEqual(toOnCalendar('0 0 L * *'), ['*-*~01 00:00:00']);
  assert.deepEqual(toOnCalendar('0 0 * * 5L'), ['Fri *-*~07/1 00:00:00']);
  assert.deepEqual(toOnCalendar('0 12 * * 1#2'), ['Mon *-*-08..14 12:00:00']);
});

test('H is exported as the value svcd picks for the program (seeded by its name), for systemd and Nomad alike', () => {
  const slot = new ScheduleCache().get('H 3 * * *', 'UTC', 'backup')!.next(Date.UTC(2024, 0, 1));
  const minute = String(new Date(slot!).getUTCMinutes()).padStart(2, '0');
  assert.deepEqual(toOnCalendar('H 3 * * *', 'UTC', 'backup'), [`*-*-* 03:${minute}:00 UTC`]);
  assert.equal(toNomadCron('H 3 * * *', 'backup'), `0 ${Number(minute)} 3 * * * *`, 'Nomad knows no H');
  assert.equal(toNomadCron('0 3 * * thu', 'backup'), '0 3 * * thu', 'a day name is no H');
});

test('Nomad periodic specs: 5 fields and Nomad’s aliases as written, svc’s 6-field form and other aliases as 7 fields', () => {
  assert.equal(toNomadCron('*/15 9-17 * * mon-fri'), '*/15 9-17 * * mon-fri');
  assert.equal(toNomadCron('@daily'), '@daily');
  assert.equal(toNomadCron('30 */10 * * * *'), '30 */10 * * * * *');
  assert.equal(toNomadCron('@weekdays'), '0 0 0 * * 1-5 *');
  assert.equal(toNomadCron('@minutely'), '0 * * * * * *');
});
