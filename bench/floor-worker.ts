/**
 * The physical floors, measured in a minimal Node process of its own (no manager in the way):
 *   start N          fork+exec N `sleep 3600`, time until every child has a pid (then kill them)
 *   kill N           start N sleeps, SIGTERM them all, time until every one is gone from /proc
 *   respawn FILE S   run the crash program, respawning it the moment it exits, for S seconds
 * Prints one JSON line with the result.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { pidAlive, sleep, waitFor } from './proc.js';
import { crashProgram, SLEEP } from './programs.js';

async function startSleeps(n: number): Promise<{ children: ChildProcess[]; ms: number }> {
  const t0 = performance.now();
  const children: ChildProcess[] = [];
  const spawned: Promise<unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const child = spawn(SLEEP, ['3600'], { stdio: 'ignore' });
    children.push(child);
    spawned.push(new Promise((resolve, reject) => child.once('spawn', resolve).once('error', reject)));
  }
  await Promise.all(spawned);
  return { children, ms: performance.now() - t0 };
}

async function killAll(children: ChildProcess[]): Promise<number> {
  const pids = children.map((c) => c.pid!);
  const t0 = performance.now();
  for (const c of children) c.kill('SIGTERM');
  await waitFor(() => pids.every((pid) => !pidAlive(pid)), 'children to exit', 60_000, 5);
  return performance.now() - t0;
}

async function respawn(file: string, secs: number): Promise<number> {
  const { command, args } = crashProgram(file);
  let runs = 0;
  let done = false;
  const once = () => {
    if (done) return;
    runs++;
    spawn(command, args, { stdio: 'ignore' }).once('exit', once);
  };
  once();
  await sleep(secs * 1000);
  done = true;
  return runs;
}

async function main(): Promise<void> {
  const [mode, a, b] = process.argv.slice(2);
  if (mode === 'start') {
    const { children, ms } = await startSleeps(Number(a));
    await killAll(children);
    console.log(JSON.stringify({ ms }));
  } else if (mode === 'kill') {
    const { children } = await startSleeps(Number(a));
    console.log(JSON.stringify({ ms: await killAll(children) }));
  } else if (mode === 'respawn') {
    console.log(JSON.stringify({ runs: await respawn(a, Number(b)) }));
  } else {
    throw new TypeError(`floor-worker: unknown mode '${mode}'`);
  }
}

await main();
