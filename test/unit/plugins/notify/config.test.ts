import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseNotifyToml, renderNotifyToml } from '../../../../plugins/notify/config/load.js';
import { DEFAULT_DELIVERY, DEFAULT_SUPPRESSION } from '../../../../plugins/notify/config/types.js';

const F = '/root/conf/notify.toml';
const problem = (text: string) => {
  try {
    parseNotifyToml(F, text);
  } catch (err) {
    return (err as Error).message;
  }
  return 'no error';
};

test('an empty file: no channels, every default', () => {
  assert.deepEqual(parseNotifyToml(F, ''), { suppression: DEFAULT_SUPPRESSION, delivery: DEFAULT_DELIVERY, channels: [] });
});

test('a channel gets the defaults and its own overrides', () => {
  const c = parseNotifyToml(F, '[suppression]\nburst = 4\n[[channel]]\nname = "ops"\nkind = "slack"\nurl = "https://hooks.example/x"\ngroup_window_secs = 0\n');
  assert.deepEqual(c.channels[0], { name: 'ops', kind: 'slack', url: 'https://hooks.example/x', events: [], programs: [], min_severity: 'warning', enabled: true, headers: {}, suppression: { ...DEFAULT_SUPPRESSION, burst: 4, group_window_secs: 0 } });
});

test('errors name the file, the line and the key', () => {
  const two = '[[channel]]\nname = "a"\nkind = "slack"\nurl = "https://x/"\n\n[[channel]]\nname = "b"\nkind = "slack"\nurl = "https://x/"\n';
  assert.equal(problem(`${two}events = ["process_fatal", "nope"]\n`), `${F}:10: channel[1] (name=b).events: unknown event type 'nope'`);
  assert.equal(problem(`${two}colour = "red"\n`), `${F}:10: channel[1] (name=b).colour: unknown key (expected one of name, kind, url, events, programs, min_severity, enabled, headers, rate_per_minute, burst, group_window_secs, inhibit_backoff_after_fatal, inhibit_exits_on_shutdown)`);
  assert.equal(problem('[[channel]]\nname = "a"\nkind = "irc"\nurl = "https://x/"\n'), `${F}:3: channel[0] (name=a).kind: must be one of slack, discord, teams, custom`);
  assert.equal(problem('[[channel]]\nname = "a"\nkind = "slack"\n'), `${F}:1: channel[0] (name=a).url: required: the webhook URL (http or https)`);
  assert.equal(problem('[delivery]\ntimeout_secs = 0\n'), `${F}:2: delivery.timeout_secs: must be at least 1`);
  assert.equal(problem('[suppression]\nburst = 2\nrate = 1\n'), `${F}:3: unknown key suppression.rate`);
  assert.equal(problem('[[channel]]\nname = "a"\nkind = "slack"\nurl = "https://x/"\n[[channel]]\nname = "a"\nkind = "slack"\nurl = "https://y/"\n'), `${F}:6: channel[1].name: duplicate channel name 'a'`);
  assert.equal(problem('[[channel]]\nname = "a"\nkind = "slack"\nurl = "https://x/"\nevents = ["notify_sent"]\n'), `${F}:5: channel[0] (name=a).events: notify_sent is notify's own record and is never sent to a channel`);
  assert.match(problem('[[channel]\nname = "a"\n'), /^\/root\/conf\/notify\.toml:1:\d+: /);
  assert.equal(problem('[alerts]\nx = 1\n'), `${F}:1: unknown key alerts (expected suppression, delivery, channel)`);
});

test('a malformed url is not echoed in the error (viewers see load errors; the url is a secret)', () => {
  const msg = problem('[[channel]]\nname = "a"\nkind = "slack"\nurl = "hooks.slack.com/services/T0/B0/SECRET"\n');
  assert.match(msg, /^\/root\/conf\/notify\.toml:4: channel\[0\] \(name=a\)\.url: not a URL/);
  assert.doesNotMatch(msg, /SECRET|services/);
});

test('render then parse gives the same configuration', () => {
  const text = '[delivery]\nretries = 1\n[[channel]]\nname = "ops"\nkind = "custom"\nurl = "http://127.0.0.1:9/h"\nevents = ["process_fatal"]\nprograms = ["api-*"]\nheaders = { Authorization = "Bearer x" }\nburst = 9\nenabled = false\n';
  const config = parseNotifyToml(F, text);
  assert.deepEqual(parseNotifyToml(F, renderNotifyToml(config)), config);
});

test('headers the HTTP client refuses (framing headers, control characters) are refused at load, not on every delivery', () => {
  const ch = (headers: string) => `[[channel]]\nname = "a"\nkind = "custom"\nurl = "https://x/"\nheaders = ${headers}\n`;
  assert.equal(problem(ch('{ "Content-Length" = "1" }')), `${F}:5: channel[0] (name=a).headers: header 'Content-Length' is set by svc's HTTP client and cannot be given (every delivery would fail)`);
  for (const name of ['transfer-encoding', 'Expect', 'Upgrade', 'Keep-Alive']) assert.match(problem(ch(`{ "${name}" = "x" }`)), /is set by svc's HTTP client/, name);
  assert.equal(problem(ch('{ "X-Token" = "ab\\u0000cd" }')), `${F}:5: channel[0] (name=a).headers: header 'X-Token' must be a one-line string without control characters`);
  assert.match(problem(ch('{ "X-Token" = "ab\\u007fcd" }')), /without control characters/);
  assert.equal(problem(ch('{ "X-Token" = "a\\tb", Host = "hooks.internal", "Content-Type" = "application/json; charset=utf-8" }')), 'no error');
});
