import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { SVC, eventually, fixture, useDaemon } from '../helpers/daemon.js';
import { runCli } from '../helpers/cli.js';

const d = useDaemon();

/** `svc logs ... -f` as a child: its stdout lines as they come; killed by the test, or after it if an assertion failed first. */
const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
});
function followLogs(args: string[]) {
  const child = spawn(process.execPath, [SVC, 'logs', ...args], { env: { ...process.env, SVC_URL: d.url }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines: string[] = [];
  createInterface({ input: child.stdout }).on('line', (l) => lines.push(l));
  return {
    lines,
    stderr: () => stderr,
    /** Ctrl-C, the normal way to stop following; resolves with the exit code. */
    interrupt: async () => {
      child.kill('SIGINT');
      const code = await exited;
      children.delete(child);
      return code;
    },
  };
}

test('svc logs -f prints the tail, then streams new lines; Ctrl-C (SIGINT) exits 0', async () => {
  const add = await runCli(['add', 'chatty', '--', process.execPath, fixture('ticker.js'), '200'], { SVC_URL: d.url });
  assert.equal(add.code, 0, add.stderr);
  await eventually(async () => (await runCli(['logs', 'chatty', '--tail', '1'], { SVC_URL: d.url })).stdout.includes('tick'), 10_000, 'a first line');

  const { lines, stderr, interrupt } = followLogs(['chatty', '-f', '--tail', '2', '--source', 'stdout']);

  // Two tail lines first, then at least two more that can only have come from the stream.
  await eventually(() => lines.length >= 4, 15_000, `streamed lines (got ${JSON.stringify(lines)}, stderr ${stderr()})`);
  for (const l of lines) assert.match(l, /^tick \d+$/);
  // Each line once, none missing, in order: the stream opens before the tail is read, and lines
  // written in between are in both (seen under load: 102,103,101,102,103,104).
  const numbers = lines.map((l) => Number(l.split(' ')[1]));
  assert.ok(numbers.every((n, i) => i === 0 || n === numbers[i - 1] + 1), `consecutive: ${numbers.join(',')}`);

  assert.equal(await interrupt(), 0, stderr());
});

test('svc logs -f -s stderr follows a program whose stdout and stderr share one file (redirect_stderr)', async () => {
  const script = 'i=0; while :; do i=$((i+1)); echo "tock $i" >&2; sleep 0.1; done';
  const add = await runCli(['add', 'onefile', '--set', 'stdout_logfile=one.log', '--set', 'stderr_logfile=one.log', '--', 'sh', '-c', script], { SVC_URL: d.url });
  assert.equal(add.code, 0, add.stderr);
  await eventually(async () => (await runCli(['logs', 'onefile', '--tail', '1', '-s', 'stderr'], { SVC_URL: d.url })).stdout.includes('tock'), 10_000, 'a first line');
  const { lines, stderr, interrupt } = followLogs(['onefile', '-f', '--tail', '2', '-s', 'stderr']);
  await eventually(() => lines.length >= 5, 15_000, `streamed lines (got ${JSON.stringify(lines)}, stderr ${stderr()})`);
  const numbers = lines.map((l) => Number(/^tock (\d+)$/.exec(l)?.[1]));
  assert.ok(numbers.every((n, i) => i === 0 || n === numbers[i - 1] + 1), `each once, in order: ${lines.join(',')}`);
  assert.equal(await interrupt(), 0, stderr());
  assert.equal((await runCli(['rm', 'onefile'], { SVC_URL: d.url })).code, 0);
});

test('svc logs -f on a program that goes away ends with a clear message', async () => {
  const add = await runCli(['add', 'brief', '--', process.execPath, fixture('forever.js')], { SVC_URL: d.url });
  assert.equal(add.code, 0, add.stderr);
  const child = spawn(process.execPath, [SVC, 'logs', 'brief', '-f'], { env: { ...process.env, SVC_URL: d.url }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child); // ends by itself below; killed after the test if an assertion fails first
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await eventually(async () => {
    // The tail is printed after the stream is open: once it shows, the stream is attached.
    if (!(await runCli(['logs', 'brief'], { SVC_URL: d.url })).stdout.includes('started')) return false;
    return stdout.includes('started');
  }, 10_000, 'tail printed by logs -f');
  assert.equal((await runCli(['rm', 'brief'], { SVC_URL: d.url })).code, 0);
  assert.equal(await exited, 1);
  assert.match(stderr, /log stream closed by svcd \(4404: program '[0-9a-f-]{36}' was removed\)/);
});
