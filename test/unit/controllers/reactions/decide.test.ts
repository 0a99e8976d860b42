import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../../../reconciler/fake-clock.js';
import { decide, matches, planReactions, type ReactionRunState } from '../../../../controllers/reactions/decide.js';
import { globMatches } from '../../../../state/name-glob.js';
import type { Reaction } from '../../../../controllers/reactions/types.js';
import type { EventRecord, EventType } from '../../../../state/events/types.js';

const reaction = (over: Partial<Reaction> = {}): Reaction => ({
  name: 'r',
  events: ['process_fatal'],
  programs: null,
  command: ['/bin/true'],
  shell: false,
  cwd: '/',
  timeoutSecs: 30,
  maxConcurrent: 1,
  cooldownSecs: 0,
  env: {},
  enabled: true,
  ...over,
});

const event = (type: EventType, program: string | null = 'web-1'): EventRecord => ({
  id: '1',
  ts: 1,
  ts_ms: 1000,
  program_id: program ? 'id' : null,
  program_name: program,
  event: type,
  exit_code: null,
  signal: null,
  retry_count: null,
  duration_secs: null,
  msg: '',
});

const idle: ReactionRunState = { running: 0, lastStartAt: null };

test('globs: *, ?, [set], [!set]; regex characters are literal', () => {
  assert.ok(globMatches('web-*', 'web-1'));
  assert.ok(!globMatches('web-*', 'api-1'));
  assert.ok(globMatches('job?', 'job7'));
  assert.ok(globMatches('w[ae]b', 'wab') && !globMatches('w[!ae]b', 'wab'));
  assert.ok(globMatches('a.b', 'a.b') && !globMatches('a.b', 'axb'));
  assert.ok(globMatches('exact', 'exact') && !globMatches('exact', 'exact2'));
});

test('matching: event type, "*" and the program selector; no selector matches system events too', () => {
  assert.ok(matches(reaction(), event('process_fatal')));
  assert.ok(!matches(reaction(), event('process_exit')));
  assert.ok(matches(reaction({ events: ['*'] }), event('cron_exit')));
  assert.ok(matches(reaction({ events: ['system_startup'] }), event('system_startup', null)));
  assert.ok(matches(reaction({ programs: ['web-*', 'db'] }), event('process_fatal', 'db')));
  assert.ok(!matches(reaction({ programs: ['web-*'] }), event('process_fatal', 'api')));
  assert.ok(!matches(reaction({ events: ['*'], programs: ['*'] }), event('system_shutdown', null)), 'a selector needs a program');
});

test('"*" leaves out notify_sent and notify_failed (a reaction, its notify message and its record would loop); named, they match', () => {
  assert.ok(!matches(reaction({ events: ['*'] }), event('notify_sent', null)));
  assert.ok(!matches(reaction({ events: ['*'] }), event('notify_failed', null)));
  assert.ok(matches(reaction({ events: ['notify_failed'] }), event('notify_failed', null)));
});

test('reactions never trigger themselves: reaction_* events match nothing, not even "*"', () => {
  for (const type of ['reaction_started', 'reaction_finished', 'reaction_failed'] as const) {
    assert.ok(!matches(reaction({ events: ['*'] }), event(type)));
    assert.ok(!matches(reaction({ events: [type] }), event(type)), 'even if a table names it');
  }
});

test('disabled -> skipped (a test run still runs)', () => {
  const r = reaction({ enabled: false });
  assert.deepEqual(decide(r, idle, 0), { run: false, reason: 'disabled', msg: 'disabled (enabled = false)' });
  assert.deepEqual(decide(r, idle, 0, true), { run: true });
});

test('concurrency: max_concurrent runs in flight -> skipped, test runs included', () => {
  const r = reaction({ maxConcurrent: 2 });
  assert.deepEqual(decide(r, { running: 1, lastStartAt: 0 }, 0), { run: true });
  const d = decide(r, { running: 2, lastStartAt: 0 }, 0);
  assert.equal(d.run, false);
  assert.equal(!d.run && d.reason, 'concurrency');
  assert.equal(decide(r, { running: 2, lastStartAt: 0 }, 0, true).run, false);
});

test('cooldown: skipped until cooldown_secs after the last start, then runs again (fake clock)', () => {
  const clock = new FakeClock();
  const r = reaction({ cooldownSecs: 60, maxConcurrent: 5 });
  const state: ReactionRunState = { running: 0, lastStartAt: clock.now() };
  clock.advance(59_000);
  const d = decide(r, state, clock.now());
  assert.equal(!d.run && d.reason, 'cooldown');
  assert.match(!d.run ? d.msg : '', /in cooldown for 1 s more \(cooldown_secs 60\)/);
  assert.equal(decide(r, state, clock.now(), true).run, true, 'a test run ignores the cooldown');
  clock.advance(1000);
  assert.deepEqual(decide(r, state, clock.now()), { run: true });
});

test('planReactions: every matching reaction in file order, each with its own state', () => {
  const a = reaction({ name: 'a' });
  const b = reaction({ name: 'b', events: ['*'] });
  const c = reaction({ name: 'c', events: ['process_exit'] });
  const states = new Map([['a', { running: 1, lastStartAt: 0 }]]);
  const plan = planReactions([a, b, c], states, event('process_fatal'), 0);
  assert.deepEqual(plan.map((p) => [p.reaction.name, p.decision.run]), [['a', false], ['b', true]]);
});
