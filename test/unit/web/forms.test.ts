import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EMPTY_FORM, FormError, formFieldOfMessage, formToConfig, parseEnv, splitArgs, FORM_FIELDS } from '../../../web/src/logic/program-form.js';
import { fieldOfMessage } from '../../../web/src/logic/field-error.js';
import { changedSince } from '../../../web/src/logic/config-edit.js';
import { DEFAULT_FILTERS, eventQuery, localToUnix, refreshesInPlace, toggleEventSort } from '../../../web/src/logic/event-filters.js';

test('arguments split like a shell line: quotes group, backslash escapes, empty quotes are an argument', () => {
  assert.deepEqual(splitArgs(`-m http.server  8080 "a b" 'c "d"' e\\ f ""`), ['-m', 'http.server', '8080', 'a b', 'c "d"', 'e f', '']);
  assert.deepEqual(splitArgs('  '), []);
  // As svcd splits a command line (and a shell): in double quotes a backslash escapes only " \\ $ `.
  assert.deepEqual(splitArgs(String.raw`"C:\dir\n" "say \"hi\""`), [String.raw`C:\dir\n`, 'say "hi"']);
  assert.throws(() => splitArgs('"open'), (e: unknown) => e instanceof FormError && e.field === 'args');
});

test('env lines are KEY=VALUE; a bad line names its number', () => {
  assert.deepEqual(parseEnv('A=1\n# note\n\nB = x=y'), { A: '1', B: ' x=y' });
  assert.throws(() => parseEnv('A=1\nnope'), /env: line 2: expected KEY=VALUE/);
});

test('the create body has only what was set, the extra JSON merged, and the web:add source', () => {
  assert.deepEqual(formToConfig({ ...EMPTY_FORM, name: ' web ', command: 'python3', args: '-m http.server' }), { name: 'web', command: 'python3', args: ['-m', 'http.server'], source: 'web:add' });
  const full = formToConfig({ ...EMPTY_FORM, name: 'j', command: 'x', cwd: '/tmp', env: 'A=1', autorestart: 'false', autostart: false, cron: '* * * * *', extra: '{"retry_limit": 3}' });
  assert.deepEqual(full, { name: 'j', command: 'x', cwd: '/tmp', env: { A: '1' }, autorestart: 'false', autostart: false, cron: '* * * * *', retry_limit: 3, source: 'web:add' });
  assert.throws(() => formToConfig({ ...EMPTY_FORM, extra: '[1]' }), /extra: must be a JSON object/);
  assert.throws(() => formToConfig({ ...EMPTY_FORM, extra: '{' }), /extra: not JSON/);
});

test('a daemon message goes next to the field it names', () => {
  const fields = [...FORM_FIELDS];
  assert.equal(fieldOfMessage("program 'web': command: must be a non-empty string", fields), 'command');
  assert.equal(fieldOfMessage('health_check.url: must match pattern', [...fields, 'health_check']), 'health_check');
  assert.equal(fieldOfMessage("services[2] (name=web): cron: invalid expression '* *'", fields), 'cron');
  assert.equal(fieldOfMessage("[1] (name=x): name: duplicate", fields), 'name');
  assert.equal(fieldOfMessage('exit_code: must be an integer, got \'x\'', ['exit_code']), 'exit_code');
  assert.equal(fieldOfMessage("program 'web': depends_on: unknown service(s): db", fields), null);
  assert.equal(fieldOfMessage('JSON line 1 column 2: unexpected token', fields), null);
});

test('a daemon message about a field set in "Other fields" goes under that box', () => {
  const form = { ...EMPTY_FORM, name: 'web', command: 'x', extra: '{"health_check": {"type": "tcp"}, "retry_limt": 3, "cwd": "rel"}' };
  assert.equal(formFieldOfMessage("program 'web': health_check.port: required for type tcp", form), 'extra');
  assert.equal(formFieldOfMessage("program 'web': retry_limt: unknown field", form), 'extra');
  assert.equal(formFieldOfMessage("program 'web': cwd: must be absolute", form), 'extra', 'the extra JSON wins over the form field');
  assert.equal(formFieldOfMessage("program 'web': command: not found", form), 'command');
  assert.equal(formFieldOfMessage("program 'web': depends_on: unknown service(s): db", form), null);
  assert.equal(formFieldOfMessage("program 'web': health_check.port: required", { ...form, extra: '{' }), null);
});

test('event filters make the spec query; dates are local, `to` covers its minute', () => {
  assert.equal(eventQuery(DEFAULT_FILTERS), 'sort_by=time&order=desc&limit=100');
  const from = localToUnix('2024-05-01T10:00') as number;
  const q = new URLSearchParams(eventQuery({ ...DEFAULT_FILTERS, from: '2024-05-01T10:00', to: '2024-05-01T10:00', event_type: 'process_exit', exit_code: ' 3 ', q: 'boom', program_id: 'p1', offset: 200 }));
  assert.equal(q.get('from'), String(from));
  assert.equal(q.get('to'), String(from + 59));
  assert.equal(q.get('event_type'), 'process_exit');
  assert.equal(q.get('exit_code'), '3');
  assert.equal(q.get('q'), 'boom');
  assert.equal(q.get('program_id'), 'p1');
  assert.equal(q.get('offset'), '200');
  // What the user typed goes to the daemon, which answers with a message naming the parameter.
  assert.equal(new URLSearchParams(eventQuery({ ...DEFAULT_FILTERS, exit_code: 'abc' })).get('exit_code'), 'abc');
  assert.deepEqual(toggleEventSort({ ...DEFAULT_FILTERS, offset: 100 }, 'time'), { ...DEFAULT_FILTERS, order: 'asc' });
  assert.deepEqual(toggleEventSort(DEFAULT_FILTERS, 'exit_code'), { ...DEFAULT_FILTERS, sort_by: 'exit_code', order: 'asc' });
});

test('events auto-refresh keeps to pages whose rows new events cannot move: the first, or oldest first by time', () => {
  assert.equal(refreshesInPlace(DEFAULT_FILTERS), true);
  assert.equal(refreshesInPlace({ ...DEFAULT_FILTERS, offset: 100 }), false, 'page 2 of newest first: each new event shifts every row');
  assert.equal(refreshesInPlace({ ...DEFAULT_FILTERS, offset: 100, order: 'asc' }), true, 'new events go after the last page');
  assert.equal(refreshesInPlace({ ...DEFAULT_FILTERS, offset: 100, order: 'asc', sort_by: 'event' }), false);
});

test('the configuration editor: the fields svcd changed since the text was made, added and removed ones too', () => {
  const opened = { name: 'web', command: 'x', env: { A: '1' }, stopsecs: 5 };
  assert.deepEqual(changedSince(opened, { ...opened }), []);
  assert.deepEqual(changedSince(opened, { ...opened, env: { A: '2' }, cron: '* * * * *' }), ['cron', 'env']);
  const { stopsecs: _gone, ...rest } = opened;
  assert.deepEqual(changedSince(opened, rest), ['stopsecs']);
});
