// What a program inherits from svcd, read from /proc/<pid> of a real program, with the spawner
// and with Node's child_process (SVC_SPAWNER=off): only fds 0, 1 and 2 (never svcd's state store
// files), no ignored or blocked signals.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { eventually, removeRoot, startDaemon, tempRoot, type RunningDaemon } from '../helpers/daemon.js';

/** The fields of /proc/<pid>/status. */
function status(pid: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(`/proc/${pid}/status`, 'utf8').split('\n')) {
    const at = line.indexOf(':');
    if (at > 0) out[line.slice(0, at)] = line.slice(at + 1).trim();
  }
  return out;
}

/** fd -> what it points at, for every open fd of pid. */
function openFds(pid: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      out[fd] = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      // closed meanwhile
    }
  }
  return out;
}

for (const spawner of ['on', 'off'] as const) {
  describe(`a program's inheritance (spawner ${spawner})`, () => {
    let d: RunningDaemon;
    before(async () => {
      d = await startDaemon(tempRoot('svc-inherit-'), { env: { SVC_SPAWNER: spawner } });
    });
    after(async () => {
      await d.stop();
      removeRoot(d.root);
    });

    /** Starts `sleep` as a program with `extra` fields and returns its pid once it has exec-ed. */
    const running = async (name: string, extra: Record<string, unknown> = {}) => {
      const created = await d.request('POST', '/api/v1/programs', { name, command: 'sleep', args: ['600'], ...extra });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return eventually(async () => {
        const pid = (await d.request('GET', `/api/v1/programs/${created.body.id}`)).body.pid as number | null;
        return pid && readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'sleep' ? pid : null;
      }, 10_000, `${name} running sleep`);
    };

    test('only fds 0, 1 and 2 are open: none of svcd\'s (its state store files), none it inherited', async () => {
      const pid = await running('fds');
      const fds = openFds(pid);
      assert.deepEqual(Object.keys(fds).sort(), ['0', '1', '2'], JSON.stringify(fds));
    });

    test('no signal is ignored or blocked in the program', async () => {
      const pid = await running('signals');
      const s = status(pid);
      assert.equal(s.SigIgn, '0000000000000000');
      assert.equal(s.SigBlk, '0000000000000000');
    });
  });
}
