import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changedFiles, cpuMax, limitFiles, limitsOf, memoryMax } from '../../../../controllers/isolation/limits.js';
import { diffMemoryEvents, oomMessage, parseMemoryEvents, pressureMessage } from '../../../../controllers/isolation/memory-events.js';
import { cpuPercent, parseReading } from '../../../../controllers/isolation/usage.js';
import { cgroup2MountsOf, judgeHost, type HostFacts } from '../../../../controllers/isolation/detect.js';

test('cpu.max: cpu_quota 100 is one core, 50 half, 200 two; at least 1 ms; none is max', () => {
  assert.equal(cpuMax(100), '100000 100000');
  assert.equal(cpuMax(50), '50000 100000');
  assert.equal(cpuMax(200), '200000 100000');
  assert.equal(cpuMax(20), '20000 100000');
  assert.equal(cpuMax(0.1), '1000 100000');
  assert.equal(cpuMax(undefined), 'max 100000');
});

test('memory.max: whole bytes, or max', () => {
  assert.equal(memoryMax(64_000_000), '64000000');
  assert.equal(memoryMax(4096.7), '4096');
  assert.equal(memoryMax(undefined), 'max');
});

test('limitFiles writes both files; a live change writes only what changed; a removed limit is lifted', () => {
  assert.deepEqual(limitFiles({ memory_limit: 64_000_000 }), [['cpu.max', 'max 100000'], ['memory.max', '64000000']]);
  assert.deepEqual(changedFiles({ memory_limit: 64_000_000, cpu_quota: 50 }, { memory_limit: 32_000_000, cpu_quota: 50 }), [['memory.max', '32000000']]);
  assert.deepEqual(changedFiles({ memory_limit: 64_000_000, cpu_quota: 50 }, { cpu_quota: 50 }), [['memory.max', 'max']]);
  assert.deepEqual(changedFiles({ cpu_quota: 50 }, { cpu_quota: 50 }), []);
});

test('limitsOf: only a resource_limits with a limit counts', () => {
  assert.equal(limitsOf({}), undefined);
  assert.equal(limitsOf({ resource_limits: {} }), undefined);
  assert.deepEqual(limitsOf({ resource_limits: { cpu_quota: 20 } }), { cpu_quota: 20 });
});

test('memory.events: parsed, diffed (a smaller counter is a new cgroup), worded', () => {
  const a = parseMemoryEvents('low 0\nhigh 2\nmax 5\noom 1\noom_kill 1\noom_group_kill 0\n');
  assert.deepEqual(a, { high: 2, max: 5, oom: 1, oom_kill: 1 });
  const b = parseMemoryEvents('high 2\nmax 9\noom 3\noom_kill 3\n');
  assert.deepEqual(diffMemoryEvents(a, b), { pressure: { high: 0, max: 4 }, oomKills: 2 });
  assert.deepEqual(diffMemoryEvents(b, a), { pressure: { high: 0, max: 5 }, oomKills: 1 });
  assert.equal(pressureMessage({ high: 1, max: 4 }, 1000), 'memory pressure: 4 time(s) at memory.max, 1 time(s) over memory.high (memory_limit 1000 bytes)');
  assert.equal(oomMessage(2, 1000), 'cgroup OOM kill: 2 process(es) killed with signal 9 at memory_limit 1000 bytes');
});

test('cgroup usage: memory.current and the cpu.stat delta over time as percent of one core', () => {
  const r1 = parseReading(1000, 'usage_usec 500000\nuser_usec 1\n', '1048576\n')!;
  const r2 = parseReading(3000, 'usage_usec 900000\n', '2097152\n')!;
  assert.equal(cpuPercent(null, r1), 0);
  assert.equal(cpuPercent(r1, r2), 20); // 0.4 s of CPU in 2 s
  assert.equal(r2.memory, 2097152);
  assert.equal(parseReading(0, null, '1'), null);
  assert.equal(parseReading(0, 'usage_usec 1', 'max'), null);
});

const facts = (over: Partial<HostFacts>): HostFacts => ({ root: '/sys/fs/cgroup', fsKind: 'cgroup2', controllers: 'cpuset cpu io memory pids', notWritable: null, cgroup2Mounts: [], uid: 0, ...over });

test('judgeHost: every reason limits cannot be enforced, and the host that can', () => {
  assert.deepEqual(judgeHost(facts({})), { ok: true });
  const reason = (over: Partial<HostFacts>) => {
    const v = judgeHost(facts(over));
    return v.ok ? 'ok' : v.reason;
  };
  assert.equal(reason({ fsKind: null }), 'the cgroup root /sys/fs/cgroup does not exist ([isolation] cgroup_root)');
  assert.equal(
    reason({ fsKind: 'tmpfs', controllers: null, cgroup2Mounts: [{ path: '/sys/fs/cgroup/unified', controllers: 'hugetlb\n' }] }),
    'no cgroup v2 at /sys/fs/cgroup: it is a tmpfs (cgroup v1 or hybrid layout), so this is a cgroup v1 host; cgroup2 is mounted at /sys/fs/cgroup/unified (controllers: hugetlb)',
  );
  assert.match(reason({ fsKind: 'cgroup1', controllers: null }), /^no cgroup v2 at \/sys\/fs\/cgroup: it is a cgroup v1 hierarchy, so this is a cgroup v1 host$/);
  assert.equal(reason({ controllers: 'hugetlb\n' }), 'the cpu and memory controllers are not available in the cgroup v2 tree at /sys/fs/cgroup (cgroup.controllers lists: hugetlb); on a hybrid host they are bound to cgroup v1');
  assert.match(reason({ controllers: 'cpu pids' }), /^the memory controller is not available/);
  assert.equal(reason({ notWritable: 'EROFS' }), '/sys/fs/cgroup is mounted read-only (as in a container without a writable cgroup mount)');
  assert.match(reason({ notWritable: 'EACCES', uid: 1000 }), /^no permission to create cgroups under \/sys\/fs\/cgroup \(svcd runs as uid 1000;/);
  assert.equal(reason({ notWritable: 'EIO' }), '/sys/fs/cgroup is not writable (EIO)');
});

test('cgroup2MountsOf reads the cgroup2 mount points of mountinfo (octal escapes decoded)', () => {
  const mountinfo = [
    '30 25 0:26 / /sys/fs/cgroup ro,nosuid - tmpfs tmpfs ro,mode=755',
    '31 30 0:27 / /sys/fs/cgroup/unified rw,nosuid - cgroup2 cgroup2 rw',
    '32 30 0:28 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu',
    '40 25 0:29 / /mnt/my\\040cg rw shared:1 - cgroup2 none rw',
  ].join('\n');
  assert.deepEqual(cgroup2MountsOf(mountinfo), ['/sys/fs/cgroup/unified', '/mnt/my cg']);
});
