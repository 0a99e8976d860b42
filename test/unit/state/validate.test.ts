import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateCreate, validateUpdate } from '../../../state/schema/validate.js';
import { parseJsonDocument } from '../../../state/schema/json-body.js';
import { SvcError } from '../../../state/errors.js';

const ctx = { logDir: '/var/log/svc' };
const message = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof SvcError, `expected SvcError, got ${String(err)}`);
    assert.equal(err.code, 'SVC_INVALID');
    return err.message;
  }
  assert.fail('expected a validation error');
};

test('command is required on create; the message names the field and the program', () => {
  assert.equal(message(() => validateCreate({ name: 'web' }, ctx)), "program 'web': command: is required");
});

test('without a name the message has no program prefix', () => {
  assert.equal(message(() => validateCreate({ command: 'x' }, ctx)), 'name: is required');
});

test('wrong types and enum values name the field', () => {
  assert.equal(message(() => validateCreate({ name: 'a', command: 'x', startsecs: 'ten' }, ctx)), "program 'a': startsecs: must be integer");
  assert.equal(message(() => validateCreate({ name: 'a', command: 'x', on_overlap: 'wait' }, ctx)), "program 'a': on_overlap: must be one of 'skip', 'queue', 'kill'");
  assert.equal(message(() => validateCreate({ name: 'a', command: 'x', autorestart: 'maybe' }, ctx)), "program 'a': autorestart: must be one of 'unexpected', 'true', 'false'");
});

test('nested fields are named with dots: health_check.url', () => {
  assert.equal(message(() => validateCreate({ name: 'a', command: 'x', health_check: { type: 'http' } }, ctx)), "program 'a': health_check.url: is required");
  assert.equal(message(() => validateCreate({ name: 'a', command: 'x', health_check: { type: 'http', url: 'ftp://x' } }, ctx)), "program 'a': health_check.url: must be an http:// or https:// URL");
});

test('max_concurrent is 1 to 64; max_queued 0 is accepted (means 100)', () => {
  assert.match(message(() => validateCreate({ name: 'a', command: 'x', max_concurrent: 65 }, ctx)), /max_concurrent: must be <= 64/);
  assert.match(message(() => validateCreate({ name: 'a', command: 'x', max_concurrent: 0 }, ctx)), /max_concurrent: must be >= 1/);
  assert.equal(validateCreate({ name: 'a', command: 'x', max_queued: 0 }, ctx).max_queued, 0);
});

test('source: at most 128 characters, no control characters', () => {
  assert.match(message(() => validateCreate({ name: 'a', command: 'x', source: 'x'.repeat(129) }, ctx)), /source: must not contain control characters \(at most 128 characters\)/);
  assert.match(message(() => validateCreate({ name: 'a', command: 'x', source: 'bad\nlabel' }, ctx)), /source: must not contain control characters/);
  assert.equal(validateCreate({ name: 'a', command: 'x', source: 'stack:web.toml' }, ctx).source, 'stack:web.toml');
});

test('unknown fields carry JSON line N column M of the key in the body', () => {
  const text = '{\n  "name": "web",\n  "command": "x",\n  "comand": "y"\n}';
  const { value, locate } = parseJsonDocument(text);
  assert.equal(message(() => validateCreate(value, { ...ctx, locate })), "program 'web': comand: unknown field at JSON line 4 column 3");
});

test('JSON syntax errors give JSON line N column M', () => {
  assert.equal(message(() => parseJsonDocument('{\n  "name": "web",\n  "command" "x"\n}')), 'JSON line 3 column 13: colon expected');
});

test('a key given twice in one JSON object is refused at its second place (JSON.parse kept the last one silently)', () => {
  const text = '{\n  "name": "web",\n  "env": {"A": "1"},\n  "command": "x",\n  "env": {"B": "2"}\n}';
  assert.equal(message(() => parseJsonDocument(text)), 'JSON line 5 column 3: key "env" appears twice in the same object (only one can count)');
  // Equal once decoded, escapes and all.
  assert.match(message(() => parseJsonDocument('{"env": {"A": "1", "\\u0041": "2"}}')), /^JSON line 1 column 20: key "A" appears twice/);
  // Not duplicates: the same key in sibling or nested objects, in arrays, inside string values.
  const fine = '[{"name": "a", "env": {"name": "x"}}, {"name": "b", "args": ["name", "name"], "command": "echo \\"name\\": 1, name"}]';
  assert.equal((parseJsonDocument(fine).value as unknown[]).length, 2);
});

test('log paths must resolve under log_dir: no .. and no symlink escape', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-logs-'));
  try {
    const logDir = join(dir, 'logs');
    mkdirSync(logDir);
    symlinkSync('/tmp', join(logDir, 'escape'));
    const c = { logDir };
    assert.equal(validateCreate({ name: 'a', command: 'x', stdout_logfile: 'app/out.log' }, c).stdout_logfile, 'app/out.log');
    assert.equal(validateCreate({ name: 'a', command: 'x', stdout_logfile: join(logDir, 'a.log') }, c).stdout_logfile, join(logDir, 'a.log'));
    assert.match(message(() => validateCreate({ name: 'a', command: 'x', stdout_logfile: '../out.log' }, c)), /stdout_logfile: must resolve under storage.log_dir/);
    assert.match(message(() => validateCreate({ name: 'a', command: 'x', stderr_logfile: '/etc/passwd' }, c)), /stderr_logfile: must resolve under storage.log_dir/);
    assert.match(message(() => validateCreate({ name: 'a', command: 'x', stdout_logfile: 'escape/x.log' }, c)), /stdout_logfile: must resolve under storage.log_dir/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a program cannot depend on itself', () => {
  assert.equal(message(() => validateCreate({ name: 'a', command: 'x', depends_on: ['a'] }, ctx)), "program 'a': depends_on: dependency cycle detected: a -> a");
});

test('cron: 5 or 6 fields or an @alias; anything else is a 400 naming cron; cron_tz must be an IANA zone', () => {
  assert.match(message(() => validateCreate({ name: 'a', command: 'x', cron: '* * *' }, ctx)), /^program 'a': cron: invalid expression '\* \* \*': expected 5 fields .* got 3/);
  assert.match(message(() => validateCreate({ name: 'a', command: 'x', cron: '* * * * * * *' }, ctx)), /cron: .*got 7/);
  assert.match(message(() => validateCreate({ name: 'a', command: 'x', cron: '61 * * * *' }, ctx)), /cron: invalid expression '61 \* \* \* \*'/);
  assert.equal(validateCreate({ name: 'a', command: 'x', cron: '*/10 * * * * *' }, ctx).cron, '*/10 * * * * *');
  assert.equal(validateCreate({ name: 'a', command: 'x', cron: '@daily' }, ctx).cron, '@daily');
  assert.equal(
    message(() => validateCreate({ name: 'a', command: 'x', cron: '@reboot' }, ctx)),
    "program 'a': cron: unknown alias '@reboot': one of @yearly, @annually, @monthly, @weekly, @daily, @hourly, @minutely, @secondly, @weekdays, @weekends (a program that runs once at boot is a plain program with autostart = true)",
  );
  assert.match(message(() => validateCreate({ name: 'a', command: 'x', cron: '@DAILY' }, ctx)), /^program 'a': cron: unknown alias '@DAILY': one of @yearly, /);
  for (const alias of ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@hourly', '@minutely', '@secondly', '@weekdays', '@weekends']) {
    assert.equal(validateCreate({ name: 'a', command: 'x', cron: alias }, ctx).cron, alias, 'every alias docs/cron.md lists is read');
  }
  assert.equal(validateCreate({ name: 'a', command: 'x', cron: '0 9 * * 1-5', cron_tz: 'Europe/Berlin' }, ctx).cron_tz, 'Europe/Berlin');
  assert.match(message(() => validateCreate({ name: 'a', command: 'x', cron: '0 9 * * *', cron_tz: 'Mars/Olympus' }, ctx)), /^program 'a': cron_tz: unknown time zone 'Mars\/Olympus'/);
  assert.match(message(() => validateCreate({ name: 'a', command: 'x', max_concurrent: 65 }, ctx)), /max_concurrent: must be <= 64/);
});

test('cron: a day of the month that none of the months named has (0 0 31 2 *, never fires) is a 400 saying so', () => {
  for (const cron of ['0 0 31 2 *', '0 0 30 2 *', '0 0 31 4,6 *']) {
    assert.equal(
      message(() => validateCreate({ name: 'a', command: 'x', cron }, ctx)),
      `program 'a': cron: invalid expression '${cron}': none of its months has its day of the month (such as 31 in April or 30 in February), so it would never fire`,
    );
  }
  assert.equal(validateCreate({ name: 'a', command: 'x', cron: '0 0 29 2 *' }, ctx).cron, '0 0 29 2 *', 'leap days exist');
  assert.equal(validateCreate({ name: 'a', command: 'x', cron: '0 0 31 2 1' }, ctx).cron, '0 0 31 2 1', 'with a weekday it fires on Mondays in February');
});

test('cron expressions are checked', () => {
  assert.match(message(() => validateCreate({ name: 'a', command: 'x', cron: 'every day' }, ctx)), /^program 'a': cron: invalid expression 'every day'/);
  assert.equal(validateCreate({ name: 'a', command: 'x', cron: '*/5 * * * *' }, ctx).cron, '*/5 * * * *');
});

test('artifact: http only on loopback; signal restart policies need an enabled health_check', () => {
  const artifact = { source: 'http://example.com/app', checksum: 'a'.repeat(64), destination: '/opt/app' };
  assert.match(message(() => validateCreate({ name: 'a', command: 'x', artifact }, ctx)), /artifact.source: must use https/);
  const local = { ...artifact, source: 'http://127.0.0.1:8000/app', restart_policy: 'signal:hup' };
  assert.match(message(() => validateCreate({ name: 'a', command: 'x', artifact: local }, ctx)), /artifact.restart_policy: 'signal:hup' requires an enabled health_check/);
  const ok = validateCreate({ name: 'a', command: 'x', artifact: local, health_check: { type: 'tcp', port: 80 } }, ctx);
  assert.equal(ok.artifact?.restart_policy, 'signal:hup');
});

test('names: letters, digits and ._-@; never UUID-shaped', () => {
  assert.match(message(() => validateCreate({ name: 'my app', command: 'x' }, ctx)), /name: must start with a letter or digit/);
  assert.match(message(() => validateCreate({ name: '0b7c5a7e-8a4e-4c1a-9d57-3d0f6b5e2a11', command: 'x' }, ctx)), /name: must not look like a UUID/);
});

test('autorestart accepts booleans and stores the string form', () => {
  assert.equal(validateCreate({ name: 'a', command: 'x', autorestart: false }, ctx).autorestart, 'false');
});

test('update: only present fields change; null removes; "" clears env_file and source', () => {
  const current = { name: 'a', command: 'x', env_file: '.env', source: 'cli:add', retry_limit: 3, cwd: '/srv' };
  const merged = validateUpdate({ env_file: '', source: '', retry_limit: null, stopsecs: 5 }, current, ctx);
  assert.deepEqual(merged, { name: 'a', command: 'x', cwd: '/srv', stopsecs: 5 });
  assert.deepEqual(validateUpdate({}, current, ctx), current);
});

test('update validates the same rules and names the program', () => {
  const current = { name: 'a', command: 'x' };
  assert.equal(message(() => validateUpdate({ max_concurrent: 100 }, current, ctx)), "program 'a': max_concurrent: must be <= 64");
  assert.equal(message(() => validateUpdate({ command: null }, current, ctx)), "program 'a': command: must be string");
});

test('a stack prefix replaces the program prefix', () => {
  assert.equal(message(() => validateCreate({ name: 'web' }, { ...ctx, prefix: 'services[2] (name=web)' })), 'services[2] (name=web): command: is required');
});

test('strings handed to the kernel refuse a NUL byte, naming the field', () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ command: 'a\0b' }, 'command'],
    [{ args: ['ok', 'a\0'] }, 'args[1]'],
    [{ cwd: '/tmp\0x' }, 'cwd'],
    [{ env: { A: 'x\0y' } }, 'env.A'],
    [{ env_file: 'e\0' }, 'env_file'],
    [{ hooks: { pre_start: 'x\0' } }, 'hooks.pre_start'],
    [{ stdout_logfile: 'a\0.log' }, 'stdout_logfile'],
    [{ health_check: { type: 'exec', command: 'true', args: ['\0'] } }, 'health_check.args[0]'],
    [{ health_check: { type: 'exec', command: 'sh -c\0true' } }, 'health_check.command'],
  ];
  for (const [extra, field] of cases) {
    assert.equal(message(() => validateCreate({ name: 'a', command: 'x', ...extra }, ctx)), `program 'a': ${field}: must not contain a NUL byte`);
  }
  assert.equal(message(() => validateCreate({ name: 'a', command: 'x', user: 'ro\0ot' }, ctx)), "program 'a': user: must not contain a NUL byte");
});

test('numeric uid and gid are bounded to what the kernel and spawn accept', () => {
  for (const user of [1e308, 4294967295, 2147483648, -1, 1.5]) {
    assert.equal(message(() => validateCreate({ name: 'a', command: 'x', user }, ctx)), "program 'a': user: must be a user name or a numeric uid from 0 to 2147483647");
  }
  assert.equal(message(() => validateCreate({ name: 'a', command: 'x', group: 1e308 }, ctx)), "program 'a': group: must be a group name or a numeric gid from 0 to 2147483647");
  assert.equal(validateCreate({ name: 'a', command: 'x', user: 2147483647, group: 0 }, ctx).user, 2147483647);
});

test('artifact: a name that starts with 127. is not loopback (plain http refused)', () => {
  const artifact = { source: 'http://127.example.com/app', checksum: 'a'.repeat(64), destination: '/opt/app' };
  assert.match(message(() => validateCreate({ name: 'a', command: 'x', artifact }, ctx)), /artifact.source: must use https/);
  for (const source of ['http://localhost/app', 'http://127.0.0.2/app', 'http://[::1]:8/app']) {
    assert.equal(validateCreate({ name: 'a', command: 'x', artifact: { ...artifact, source } }, ctx).artifact?.source, source);
  }
});

test('memory_limit is refused past 2^53 - 1 (memory.max takes no exponent form), with the field named', () => {
  const body = (memory_limit: number) => ({ name: 'web', command: 'x', resource_limits: { memory_limit } });
  assert.match(message(() => validateCreate(body(1e300), ctx)), /resource_limits\.memory_limit: .*9007199254740991/);
  assert.match(message(() => validateCreate(body(1024), ctx)), /resource_limits\.memory_limit: .*4096/);
  assert.equal(validateCreate(body(Number.MAX_SAFE_INTEGER), ctx).resource_limits?.memory_limit, Number.MAX_SAFE_INTEGER);
});

test('a limit written with a unit (512M, 50%) says what the number means instead of "must be number"', () => {
  const limits = (resource_limits: unknown) => ({ name: 'web', command: 'x', resource_limits });
  assert.match(message(() => validateCreate(limits({ memory_limit: '512M' }), ctx)), /resource_limits\.memory_limit: must be a number of bytes, at least 4096 \(536870912 for 512 MiB; a unit such as 512M is not read\)/);
  assert.match(message(() => validateCreate(limits({ cpu_quota: '50%' }), ctx)), /resource_limits\.cpu_quota: must be a number, the percent of one core \(50 is half a core, 200 two cores/);
});

test('health_check: a url that does not parse and a tcp host no resolver takes are refused, saying how to write them', () => {
  const check = (health_check: Record<string, unknown>) => message(() => validateCreate({ name: 'a', command: 'x', health_check }, ctx));
  for (const url of ['http://127.0.0.1:99999/health', 'http://[::1/health', 'http://:80/']) {
    assert.equal(check({ type: 'http', url }), "program 'a': health_check.url: is not a valid URL (a host name or address, and a port from 1 to 65535 if any)");
  }
  const tcp = (host: string) => check({ type: 'tcp', host, port: 5432 });
  assert.equal(tcp('127.0.0.1:5432'), "program 'a': health_check.host: must be a host name or an IP address (the port is a field of its own: host = '127.0.0.1', port = 5432)");
  assert.equal(tcp('[::1]'), "program 'a': health_check.host: must be a host name or an IP address (write an IPv6 address without brackets: '::1')");
  assert.equal(tcp('http://db'), "program 'a': health_check.host: must be a host name or an IP address (a tcp check takes a host, not a URL; an http check takes url)");
  assert.equal(tcp('db host'), "program 'a': health_check.host: must be a host name or an IP address");
  for (const host of ['::1', 'fe80::1%eth0', '10.0.0.7', 'localhost', 'db', 'my_db', 'db-1.internal.example.com', 'example.com.']) {
    assert.equal(validateCreate({ name: 'a', command: 'x', health_check: { type: 'tcp', host, port: 5432 } }, ctx).health_check?.host, host);
  }
  for (const url of ['http://[::1]:8080/health', 'https://user:pw@db.example.com/x?y=1#z', 'http://localhost/']) {
    assert.equal(validateCreate({ name: 'a', command: 'x', health_check: { type: 'http', url } }, ctx).health_check?.url, url);
  }
});

test('health_check: a field of another type of check is refused, naming it and what the type uses (it would be stored and never read)', () => {
  const check = (health_check: Record<string, unknown>) => message(() => validateCreate({ name: 'a', command: 'x', health_check }, ctx));
  assert.equal(check({ type: 'tcp', port: 80, url: 'http://127.0.0.1/health' }), "program 'a': health_check.url: a tcp check connects to host and port, not url");
  assert.equal(check({ type: 'http', url: 'http://127.0.0.1/', port: 8080 }), "program 'a': health_check.port: an http check requests url, not port");
  assert.equal(
    check({ type: 'exec', command: 'true', host: 'db', port: 5432 }),
    "program 'a': health_check.host: an exec check runs command and args, not host; health_check.port: an exec check runs command and args, not port",
  );
  assert.equal(check({ type: 'tcp', port: 80, command: 'true', args: [] }), "program 'a': health_check.command: a tcp check connects to host and port, not command; health_check.args: a tcp check connects to host and port, not args");
  // Each type with its own fields, and a change of type by update (the check is replaced whole).
  const current = validateCreate({ name: 'a', command: 'x', health_check: { type: 'http', url: 'http://127.0.0.1/' } }, ctx);
  assert.deepEqual(validateUpdate({ health_check: { type: 'tcp', host: 'db', port: 5432 } }, current, ctx).health_check, { type: 'tcp', host: 'db', port: 5432 });
  assert.equal(validateCreate({ name: 'a', command: 'x', health_check: { type: 'exec', command: 'true', args: ['-x'] } }, ctx).health_check?.command, 'true');
});

test('health_check: a missing type is the one problem named; a duration with a unit says how to write seconds', () => {
  assert.equal(message(() => validateCreate({ name: 'a', command: 'x', health_check: { port: 5432 } }, ctx)), "program 'a': health_check.type: is required");
  assert.equal(
    message(() => validateCreate({ name: 'a', command: 'x', health_check: { type: 'tcp', port: 5432, interval_secs: '10s' } }, ctx)),
    "program 'a': health_check.interval_secs: must be a number of seconds (10, or 0.5; a unit such as '10s' is not read)",
  );
  assert.match(message(() => validateCreate({ name: 'a', command: 'x', health_check: { type: 'tcp', port: 5432, timeout_secs: '5s', start_period_secs: '1m' } }, ctx)), /health_check\.timeout_secs: must be a number of seconds .*health_check\.start_period_secs: must be a number of seconds/s);
});

test('a command line that splits into no word or leaves a quote open is refused when written, not at each start', () => {
  assert.equal(message(() => validateCreate({ name: 'a', command: '   ' }, ctx)), "program 'a': command: is empty (only white space)");
  assert.equal(message(() => validateCreate({ name: 'a', command: 'sleep "1' }, ctx)), "program 'a': command: unterminated double quote (quotes are read as a POSIX shell reads them)");
  assert.equal(message(() => validateCreate({ name: 'a', command: 'x', hooks: { pre_start: "echo 'hi" } }, ctx)), "program 'a': hooks.pre_start: unterminated single quote (quotes are read as a POSIX shell reads them)");
  assert.equal(message(() => validateCreate({ name: 'a', command: 'x', hooks: { post_stop: ' ' } }, ctx)), "program 'a': hooks.post_stop: is empty (only white space)");
  assert.equal(message(() => validateCreate({ name: 'a', command: 'x', health_check: { type: 'exec', command: '\t' } }, ctx)), "program 'a': health_check.command: is empty (only white space)");
  assert.equal(message(() => validateUpdate({ command: 'run "it' }, { name: 'a', command: 'x' }, ctx)), "program 'a': command: unterminated double quote (quotes are read as a POSIX shell reads them)");
  // With args the command is the executable itself, never split; an exec check with args likewise.
  assert.equal(validateCreate({ name: 'a', command: 'my "tool', args: [] }, ctx).command, 'my "tool');
  assert.equal(validateCreate({ name: 'a', command: 'x', health_check: { type: 'exec', command: "it's", args: [] } }, ctx).health_check?.command, "it's");
  // A record stored by an older svcd still loads (its starts fail, as they did).
  assert.equal(validateCreate({ name: 'a', command: 'sleep "1' }, { ...ctx, stored: true }).command, 'sleep "1');
});

test('env: a variable name that is empty or holds = names the key (it was a bare regular expression)', () => {
  assert.equal(message(() => validateCreate({ name: 'a', command: 'x', env: { 'A=B': '1' } }, ctx)), "program 'a': env: variable name \"A=B\" must be non-empty, without '=' or a NUL byte");
  assert.equal(message(() => validateCreate({ name: 'a', command: 'x', env: { '': '1' } }, ctx)), "program 'a': env: variable name \"\" must be non-empty, without '=' or a NUL byte");
});
