// `npm run test:stress`: the whole suite with every core kept busy by CPU burners this script
// starts (and kills, by pid, however it ends), SVC_STRESS_RUNS times in a row (default 5).
// Any failed run fails the whole thing. Expects a fresh build (`npm run test:stress` builds first).
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

const runs = Number(process.env.SVC_STRESS_RUNS ?? 5);
const burnerCount = Number(process.env.SVC_STRESS_BURNERS ?? availableParallelism());
const burners = [];

function startBurners() {
  for (let i = 0; i < burnerCount; i++) {
    const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    burners.push(child.pid);
  }
  console.error(`test:stress: ${burnerCount} CPU burner(s) started (pids ${burners.join(', ')})`);
}

function stopBurners() {
  for (const pid of burners.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

process.on('exit', stopBurners);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopBurners();
    process.exit(130);
  });
}

startBurners();
for (let run = 1; run <= runs; run++) {
  const started = Date.now();
  const result = spawnSync(process.execPath, ['scripts/run-tests.mjs'], { stdio: 'inherit', env: { ...process.env, SVC_STRESS: '1' } });
  const secs = Math.round((Date.now() - started) / 1000);
  if (result.status !== 0) {
    console.error(`test:stress: run ${run} of ${runs} FAILED after ${secs} s`);
    process.exit(1);
  }
  console.error(`test:stress: run ${run} of ${runs} passed in ${secs} s`);
}
console.error(`test:stress: ${runs} runs in a row passed with ${burnerCount} core(s) busy`);
// Exit explicitly: the burners' child handles would keep this process (and them) alive forever.
process.exit(0);
