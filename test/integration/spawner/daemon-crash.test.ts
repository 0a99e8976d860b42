// A real svcd on the spawner, killed with SIGKILL: the next svcd learns the real exit of programs
// that ended while it was down, and after a crash in the middle of a bulk start every program
// has exactly one process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, pidAlive, removeRoot, startDaemon, tempRoot, type RunningDaemon } from '../../helpers/daemon.js';
import { killSpawnerOf } from '../../helpers/spawner.js';

interface Item {
  id: string;
  name: string;
  status: string;
  pid: number | null;
}

/** Live (non-zombie) processes whose environment has all of `vars`, by pid. */
function processesWith(vars: string[]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || !pidAlive(pid)) continue;
    let env: string[];
    try {
      env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (vars.every((v) => env.includes(v))) out.set(pid, env);
  }
  return out;
}

/** Kills, by pid, every process that carries this root in its environment (programs of svcd). */
function killRootProcesses(root: string): void {
  for (const pid of processesWith([`SVC_ROOT=${root}`]).keys()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

const list = async (d: RunningDaemon) => (await d.request('GET', '/api/v1/programs')).body as Item[];

test('programs that end while svcd is down report their real exit code to the next svcd', async () => {
  const root = tempRoot();
  let d = await startDaemon(root);
  try {
    // Each waits for its flag, consumes it and exits: a second copy would wait forever.
    const waitsFor = (flag: string, code: number) => ({ command: '/bin/sh', args: ['-c', `while [ ! -e ${flag} ]; do sleep 0.05; done; rm ${flag}; exit ${code}`] });
    await d.request('POST', '/api/v1/programs', [
      { name: 'ends-ok', ...waitsFor(join(root, 'ok.flag'), 0) },
      { name: 'ends-bad', ...waitsFor(join(root, 'bad.flag'), 3), retry_limit: 0 },
    ]);
    const running = await eventually(async () => {
      const l = await list(d);
      return l.length === 2 && l.every((p) => p.status === 'Running') ? l : null;
    });
    await d.crash(); // at once: no wait for runtime records
    writeFileSync(join(root, 'ok.flag'), '');
    writeFileSync(join(root, 'bad.flag'), '');
    for (const p of running) await eventually(() => !pidAlive(p.pid!), 10_000, `${p.name} to end while svcd is down`);
    const endedBy = Date.now(); // the next svcd takes far longer than a millisecond to start and judge them

    d = await startDaemon(root);
    const detail = async (name: string) => (await d.request('GET', `/api/v1/programs/${running.find((p) => p.name === name)!.id}`)).body;
    const ok = await eventually(async () => ((await detail('ends-ok')).status === 'Exited' ? detail('ends-ok') : null), 10_000, 'ends-ok Exited');
    assert.equal(ok.state.last_exit.exit_code, 0, 'exit 0 is an expected exit, not a crash');
    assert.equal(ok.state.restarts, 0);
    assert.ok(ok.state.last_exit.at <= endedBy, `timed when it ended (${ok.state.last_exit.at}), not when svcd came back (after ${endedBy})`);
    const bad = await eventually(async () => ((await detail('ends-bad')).status === 'Fatal' ? detail('ends-bad') : null), 10_000, 'ends-bad Fatal');
    assert.equal(bad.state.last_exit.exit_code, 3, 'the real exit code, not "unknown"');
  } finally {
    await d.stop();
    killRootProcesses(root);
    removeRoot(root);
  }
});

test('svcd killed in the middle of a bulk start: every program ends up with exactly one process', async () => {
  const root = tempRoot();
  let d = await startDaemon(root);
  const n = 150;
  try {
    const res = await d.request('POST', '/api/v1/programs', Array.from({ length: n }, (_, i) => ({ name: `bulk-${i}`, command: '/bin/sleep', args: ['1000'] })));
    assert.equal(res.status, 201);
    // Killed once some run: spawns in flight, runtime records written behind them (issue 25 #1).
    await eventually(async () => (await list(d)).filter((p) => p.pid).length >= 1, 30_000, 'the first programs running');
    await d.crash();

    d = await startDaemon(root);
    const items = await eventually(async () => {
      const l = await list(d);
      return l.length === n && l.every((p) => p.status === 'Running') ? l : null;
    }, 30_000, `${n} programs running`);
    const procs = processesWith([`SVC_ROOT=${root}`]);
    const perProgram = new Map<string, number[]>();
    for (const [pid, env] of procs) {
      const id = env.find((e) => e.startsWith('SVC_PROGRAM_ID='))?.slice('SVC_PROGRAM_ID='.length);
      if (id) perProgram.set(id, [...(perProgram.get(id) ?? []), pid]);
    }
    for (const item of items) assert.deepEqual(perProgram.get(item.id), [item.pid], `${item.name}: one process, the one svcd reports`);
    assert.equal([...perProgram.values()].flat().length, n, 'count(processes) == count(programs)');
  } finally {
    await d.stop();
    killRootProcesses(root);
    killSpawnerOf(join(root, 'run', 'spawner.sock'));
    removeRoot(root);
  }
});
