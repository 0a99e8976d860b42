import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SVC, fixture, eventually, useDaemon } from '../helpers/daemon.js';
import { svcAgainst } from '../helpers/cli.js';

const d = useDaemon();
const svc = svcAgainst(d);

const statusOf = async (name: string) => ((JSON.parse((await svc('--json', 'list')).stdout) as { name: string; status: string }[]).find((p) => p.name === name) ?? { status: 'absent' }).status;

test('PM2 and supervisorctl habits: status, describe/show, all, GROUP:*, GROUP:NAME, delete', async () => {
  for (const [name, group] of [['web1', 'web'], ['web2', 'web'], ['db', 'data']] as const) {
    const add = await svc('add', name, '--group', group, '--', process.execPath, fixture('forever.js'));
    assert.equal(add.code, 0, add.stderr);
  }
  await eventually(async () => (await statusOf('db')) === 'Running' && (await statusOf('web2')) === 'Running');
  const status = await svc('status');
  assert.match(status.stdout, /^NAME\s+STATUS/);
  assert.match((await svc('status', 'db')).stdout, /name:\s+db\n/);
  assert.match((await svc('describe', 'db')).stdout, /name:\s+db\n/);
  assert.match((await svc('show', 'web1')).stdout, /name:\s+web1\n/);

  const stopGroup = await svc('stop', 'web:*');
  assert.equal(stopGroup.code, 0, stopGroup.stderr);
  assert.match(stopGroup.stdout, /web1\s+ok\s+Stopped/);
  assert.match(stopGroup.stdout, /web2\s+ok\s+Stopped/);
  assert.doesNotMatch(stopGroup.stdout, /\bdb\b/);
  // A stopped program has no process: CPU and MEM show '-', not 0.
  assert.match((await svc('list')).stdout, /\nweb1\s+Stopped\s+-\s+-\s+-\s/);

  assert.match((await svc('start', 'web:web1')).stdout, /web1\s+ok\s+Running/);
  const wrongGroup = await svc('start', 'data:web2');
  assert.equal(wrongGroup.code, 1);
  assert.match(wrongGroup.stderr, /not in group 'data'/);

  const restartAll = await svc('restart', 'all');
  assert.equal(restartAll.code, 0, restartAll.stderr);
  for (const name of ['web1', 'web2', 'db']) assert.match(restartAll.stdout, new RegExp(`${name}\\s+ok\\s+Running`));

  // Filters, as systemctl list-units takes them: patterns, GROUP:*, --status, --group.
  const rowsOf = (out: string) => out.trim().split('\n').slice(1).map((l) => l.split(/\s+/).slice(0, 2).join(' '));
  assert.deepEqual(rowsOf((await svc('list', 'web*')).stdout), ['web1 Running', 'web2 Running']);
  assert.deepEqual(rowsOf((await svc('ls', 'data:*', 'web2')).stdout), ['db Running', 'web2 Running']);
  assert.deepEqual(rowsOf((await svc('list', '--group', 'web', '--status', 'running')).stdout), ['web1 Running', 'web2 Running']);
  assert.equal((await svc('list', '--status', 'Fatal')).stdout.trim(), 'no programs match (3 in all)');
  assert.deepEqual((JSON.parse((await svc('--json', 'list', 'd?')).stdout) as { name: string; group_name: string | null }[]).map((p) => [p.name, p.group_name]), [['db', 'data']]);
  const badStatus = await svc('list', '--status', 'Fatl');
  assert.equal(badStatus.code, 2);
  assert.match(badStatus.stderr, /--status: unknown status 'Fatl' \(one of: /);

  assert.match((await svc('delete', 'db')).stdout, /db\s+ok\s+Removed/);
  assert.equal(await statusOf('db'), 'absent');

  const named = await svc('add', 'all', '--no-autostart', '--', 'sleep', '100');
  assert.equal(named.code, 0, named.stderr);
  assert.match(named.stderr, /^warning: a program named 'all' is reached by its id \([0-9a-f-]{36}\) in svc start, stop, restart, signal and rm: the word all means every program\n$/);
  const id = /\(([0-9a-f-]{36})\)/.exec(named.stderr)![1];
  assert.match((await svc('rm', id)).stdout, /all\s+ok\s+Removed/);
});

test('svc logs without a name: every program, each line with its name; -f adds a timestamp per line', async () => {
  for (const name of ['tick-a', 'tick-b']) assert.equal((await svc('add', name, '--', process.execPath, fixture('ticker.js'), '100')).code, 0);
  await eventually(async () => {
    const out = (await svc('logs', '--source', 'stdout')).stdout;
    return /^tick-a \| tick \d+$/m.test(out) && /^tick-b \| tick \d+$/m.test(out);
  }, 10_000, 'both programs in svc logs');

  const child = spawn(process.execPath, [SVC, 'logs', '-f', '--tail', '0', '--source', 'stdout'], { env: { ...process.env, SVC_URL: d.url }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  createInterface({ input: child.stdout }).on('line', (l) => lines.push(l));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const stamped = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) (tick-a|tick-b) \| tick \d+$/;
    await eventually(() => lines.some((l) => l.includes('tick-a |')) && lines.some((l) => l.includes('tick-b |')), 15_000, `streamed lines of both (${JSON.stringify(lines.slice(0, 4))})`);
    for (const l of lines) assert.match(l, stamped);
    // The time is when svcd read the line: today, within the last minute.
    const age = Date.now() - Date.parse(stamped.exec(lines[0])![1]);
    assert.ok(age >= -5000 && age < 60_000, `timestamp ${lines[0]} is ${age} ms old`);
  } finally {
    process.kill(child.pid!, 'SIGINT');
  }
  assert.equal(await exited, 0);

  const one = await svc('logs', 'tick-a', '--timestamps', '--tail', '1', '--source', 'stdout');
  // Lines read back from the files carry no time: '-' keeps the column.
  assert.match(one.stdout, /^- +tick \d+\n$/);
});

test('svc logs -f shows a line longer than the stream\'s 64 KiB pieces as the one line the tail shows', async () => {
  const go = join(d.root, 'long-line-go');
  // Once the test says so, writes one 200,000-character line in two writes 300 ms apart (svcd
  // reads the first part before the line ends, so the stream sends it in pieces), then a short one.
  const script = `console.log('ready');const fs=require('fs');const t=setInterval(()=>{if(fs.existsSync(${JSON.stringify(go)})){clearInterval(t);process.stdout.write('x'.repeat(150000));setTimeout(()=>process.stdout.write('x'.repeat(49999)+'y\\nshort\\n'),300);setInterval(()=>{},1e6)}},50)`;
  assert.equal((await svc('add', 'longline', '--', process.execPath, '-e', script)).code, 0);
  await eventually(async () => (await statusOf('longline')) === 'Running', 10_000, 'longline running');
  await eventually(async () => (await svc('logs', 'longline', '--tail', '1')).stdout.includes('ready'), 10_000, 'longline started');
  const child = spawn(process.execPath, [SVC, 'logs', 'longline', '-f', '--tail', '1', '--source', 'stdout'], { env: { ...process.env, SVC_URL: d.url }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let stderr = '';
  createInterface({ input: child.stdout }).on('line', (l) => lines.push(l));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    // The tail (ready) is printed once the stream is open: the long line comes after.
    await eventually(() => lines.includes('ready'), 15_000, `the tail (${stderr})`);
    writeFileSync(go, '');
    await eventually(() => lines.includes('short'), 15_000, `the short line after the long one (${lines.length} lines so far; ${stderr})`);
    assert.deepEqual(lines.map((l) => l.length), [5, 200_000, 5], 'one long line, not its pieces');
    assert.ok(lines[1].endsWith('xy'));
  } finally {
    process.kill(child.pid!, 'SIGINT');
  }
  assert.equal(await exited, 0);
  const tail = (await svc('logs', 'longline', '--tail', '2', '--source', 'stdout')).stdout.trim().split('\n');
  assert.deepEqual(tail.map((l) => l.length), [200_000, 5], 'the tail shows the same');
  await svc('rm', 'longline');
});

test('svc flush empties the log files of one program or all', async () => {
  await eventually(async () => (await svc('logs', 'tick-a', '--tail', '1')).stdout.includes('tick'));
  const res = await svc('flush', 'tick-a');
  assert.equal(res.code, 0, res.stderr);
  assert.equal(res.stdout, 'flushed tick-a\n');
  const all = await svc('--json', 'flush');
  assert.equal(all.code, 0, all.stderr);
  const names = (JSON.parse(all.stdout) as { name: string; flushed: string[] }[]).map((r) => r.name).sort();
  assert.ok(names.includes('tick-a') && names.includes('tick-b'), names.join(','));
  await svc('rm', 'tick-a', 'tick-b');
});

test('svc rm --force kills a program that ignores SIGTERM at once, instead of waiting its stopsecs', async () => {
  const add = await svc('add', 'stubborn', 'sh', '--stopsecs', '600', '--', '-c', "trap '' TERM; while :; do sleep 1; done");
  assert.equal(add.code, 0, add.stderr);
  await eventually(async () => (await statusOf('stubborn')) === 'Running', 10_000, 'stubborn running');
  const rm = await svc('rm', '--force', 'stubborn');
  assert.equal(rm.code, 0, rm.stderr);
  assert.equal(await statusOf('stubborn'), 'absent');
  const exits = JSON.parse((await svc('--json', 'events', '--type', 'process_exit', '--limit', '5')).stdout) as { program_name: string; signal: number | null; msg: string }[];
  const exit = exits.find((e) => e.program_name === 'stubborn');
  assert.equal(exit?.signal, 9, JSON.stringify(exits));
  assert.match(exit.msg, /removed/);
});

test('svc add of a command that cannot run warns at once; svc info and the events say why, no Backoff loop', async () => {
  const missing = await svc('add', 'ghost', '--', '/nonexistent/ghost-binary', '--flag');
  assert.equal(missing.code, 0, missing.stderr);
  assert.match(missing.stderr, /^warning: ghost: spawn failed: command not found: \/nonexistent\/ghost-binary/m);
  const info = await svc('info', 'ghost');
  assert.match(info.stdout, /status:\s+Fatal \(spawn failed: command not found: \/nonexistent\/ghost-binary/);
  // The history is written behind the state svc add reported: wait for the record.
  let types: string[] = [];
  await eventually(async () => {
    types = (JSON.parse((await svc('--json', 'events', 'ghost')).stdout) as { event: string }[]).map((e) => e.event);
    return types.includes('process_fatal');
  }, 10_000, 'process_fatal recorded').catch((err: Error) => assert.fail(`${err.message}: ${types.join(',')}`));
  assert.ok(!types.includes('process_backoff'), types.join(','));

  const notExec = await svc('add', 'noexec', '--', fixture('package.json'));
  assert.match(notExec.stderr, /^warning: noexec: spawn failed: permission denied: /m);
  assert.equal(await statusOf('noexec'), 'Fatal');
  await svc('rm', 'ghost', 'noexec');
});

test('svc add of a program that crashes at once warns with its exit and its last lines of stderr; --no-wait does not look', async () => {
  const crash = await svc('add', 'early', '--set', 'backoff_secs=60', '--', process.execPath, '-e', 'console.error("cannot open /etc/early.conf"); process.exit(4)');
  assert.equal(crash.code, 0, crash.stderr);
  assert.match(crash.stderr, /^warning: early: crashed: exit code 4, (\d+ ms|\d+\.\d s|under 1 ms) after it started; now Backoff\n {2}its last lines of stderr \(svc logs early\):\n {4}cannot open \/etc\/early\.conf\n$/);
  const json = JSON.parse((await svc('--json', 'add', 'early-json', '--set', 'backoff_secs=60', '--', process.execPath, '-e', 'console.error("no"); process.exit(5)')).stdout) as { warning?: string; stderr?: string[] };
  assert.match(json.warning ?? '', /^crashed: exit code 5, /);
  assert.deepEqual(json.stderr, ['no']);
  const unwatched = await svc('add', 'early-nowait', '--no-wait', '--set', 'backoff_secs=60', '--', process.execPath, '-e', 'process.exit(4)');
  assert.equal(unwatched.stderr, '');
  const steady = await svc('add', 'steady', '--', 'sleep', '30');
  assert.equal(steady.code, 0);
  assert.equal(steady.stderr, '', 'a process that keeps running is not warned about');
  await svc('rm', 'early', 'early-json', 'early-nowait', 'steady');
});

test('svc start and svc restart watch what they started: a crash at once is a warning with its stderr; --no-wait and a running program are not watched', async () => {
  const script = 'setTimeout(() => { console.error("late failure"); process.exit(3) }, 200)';
  assert.equal((await svc('add', 'late', '--no-autostart', '--set', 'backoff_secs=60', '--', process.execPath, '-e', script)).code, 0);
  const start = await svc('start', 'late');
  assert.equal(start.code, 0, start.stderr);
  assert.match(start.stdout, /late\s+ok/);
  assert.match(start.stderr, /^warning: late: crashed: exit code 3, (?:\d+ ms|under 1 ms) after it started; now Backoff\n {2}its last lines of stderr \(svc logs late\):\n {4}late failure\n$/);
  const json = JSON.parse((await svc('--json', 'restart', 'late')).stdout) as { name: string; warning?: string; stderr?: string[] }[];
  assert.match(json[0]?.warning ?? '', /^crashed: exit code 3, /);
  assert.equal(json[0]?.stderr?.at(-1), 'late failure');
  assert.equal((await svc('restart', '--no-wait', 'late')).stderr, '');
  assert.equal((await svc('add', 'calm', '--', 'sleep', '30')).code, 0);
  const again = await svc('start', 'calm');
  assert.equal(again.stderr, '', 'a program already running was not started, so nothing is watched');
  assert.equal((await svc('add', 'yearly', '--cron', '0 0 1 1 *', '--', 'sh', '-c', 'exit 4')).code, 0);
  assert.equal((await svc('start', 'yearly')).stderr, '', 'a cron program is not watched');
  await svc('rm', 'late', 'calm', 'yearly');
});

test('svc logs of a program that wrote nothing says so on stderr; the lines alone go to stdout', async () => {
  assert.equal((await svc('add', 'quiet', '--no-wait', '--', 'sleep', '30')).code, 0);
  const none = await svc('logs', 'quiet');
  assert.equal(none.code, 0);
  assert.equal(none.stdout, '');
  assert.equal(none.stderr, 'svc: no output from quiet yet\n');
  assert.equal((await svc('logs', 'quiet', '-s', 'stderr')).stderr, 'svc: no output from quiet yet on stderr\n');
  assert.equal((await svc('logs', 'quiet', '--tail', '0')).stderr, '', 'no lines asked for, none missing');
  assert.equal((await svc('--json', 'logs', 'quiet')).stderr, '');
  await svc('rm', 'quiet');
});

test('svc stop of a program in Backoff cancels its retry, and svc events says so', async () => {
  const add = await svc('add', 'crashy', '--retry-limit', '5', '--set', 'backoff_secs=60', '--', process.execPath, '-e', 'process.exit(3)');
  assert.equal(add.code, 0, add.stderr);
  await eventually(async () => (await statusOf('crashy')) === 'Backoff', 10_000, 'crashy in Backoff');
  const stop = await svc('stop', 'crashy');
  assert.equal(stop.code, 0, stop.stderr);
  assert.match(stop.stdout, /crashy\s+ok\s+Stopped/);
  let shown = '';
  await eventually(async () => {
    shown = (await svc('events', 'crashy', '--type', 'start_cancelled')).stdout;
    return shown.includes('start_cancelled');
  }, 10_000, 'start_cancelled recorded').catch((err: Error) => assert.fail(`${err.message}: ${shown}`));
  assert.match(shown, /stopped on request in Backoff: retry 1\/5, due in \d+ s, cancelled/);
  // Times as people type them: the last hour has it, a window ending yesterday does not.
  assert.match((await svc('events', 'crashy', '--from', '1h', '--type', 'start_cancelled')).stdout, /start_cancelled/);
  assert.equal((await svc('events', 'crashy', '--to', 'yesterday')).stdout.trim(), 'no events');
  await svc('rm', 'crashy');
});

test('svc shutdown stops svcd gracefully; afterwards svc says the daemon is not reachable (exit 3)', async () => {
  const res = await svc('shutdown');
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /stopping all programs/);
  await eventually(() => d.proc.exitCode !== null, 30_000, 'svcd exits');
  assert.equal((await svc('list')).code, 3);
});
