import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLOSE, LogHub, type LogClient, type LogLine } from '../../../api/ws/log-hub.js';
import { FileFollower } from '../../../log-files/follow.js';

class FakeClient implements LogClient {
  bufferedAmount = 0;
  lines: LogLine[] = [];
  closed: { code: number; reason: string } | null = null;
  send(data: string) {
    this.lines.push(JSON.parse(data) as LogLine);
  }
  close(code: number, reason: string) {
    this.closed = { code, reason };
  }
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000; // bounds a failure only; a pass returns at once
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const dir = () => mkdtempSync(join(tmpdir(), 'svc-follow-'));

test('follower: only new lines, partial lines held until complete, CRLF trimmed', async () => {
  const d = dir();
  const file = join(d, 'a.out');
  writeFileSync(file, 'old line\n');
  const got: string[] = [];
  const f = new FileFollower(file, (lines) => got.push(...lines), { pollMs: 20 });
  await f.start();
  appendFileSync(file, 'one\ntw');
  await until(() => got.length === 1, 'first line');
  assert.deepEqual(got, ['one']);
  appendFileSync(file, 'o\r\nthree\n');
  await until(() => got.length === 3, 'completed lines');
  assert.deepEqual(got, ['one', 'two', 'three']);
  f.stop();
  rmSync(d, { recursive: true });
});

test('follower: a line past maxLineBytes comes in pieces marked continues, never splitting a UTF-8 character', async () => {
  const d = dir();
  const file = join(d, 'long.out');
  writeFileSync(file, '');
  const got: { lines: string[]; continues: boolean }[] = [];
  const f = new FileFollower(file, (lines, continues) => got.push({ lines, continues }), { pollMs: 20, maxLineBytes: 8 });
  await f.start();
  // 'é' is two bytes: byte 8 falls inside the second one. No newline yet: the line is unfinished.
  appendFileSync(file, 'abcdeééééé');
  await until(() => got.length > 0, 'the pieces');
  appendFileSync(file, '-end\nnext\n');
  await until(() => got.some((g) => g.lines.includes('next')), 'the line after the long one');
  const pieces = got.filter((g) => g.continues).flatMap((g) => g.lines);
  assert.deepEqual(pieces, ['abcdeé', 'éééé'], 'each piece ends before a character it cannot hold');
  assert.deepEqual(got.filter((g) => !g.continues).flatMap((g) => g.lines), ['-end', 'next']);
  f.stop();
  rmSync(d, { recursive: true });
});

test('follower: copy+truncate rotation restarts from offset 0; a missing file is waited for', async () => {
  const d = dir();
  const file = join(d, 'b.out');
  const got: string[] = [];
  const f = new FileFollower(file, (lines) => got.push(...lines), { pollMs: 20 });
  await f.start();
  writeFileSync(file, 'first\n');
  await until(() => got.includes('first'), 'line in a file created after start');
  appendFileSync(file, 'x'.repeat(100) + '\n');
  await until(() => got.length === 2, 'long line');
  truncateSync(file, 0);
  // No pause needed: the regrown file (15 bytes) stays shorter than the old offset, so the
  // truncation is seen whether the next check runs before or after this append.
  appendFileSync(file, 'after rotation\n');
  await until(() => got.includes('after rotation'), 'line after truncation');
  f.stop();
  rmSync(d, { recursive: true });
});

test('hub: one follower pair per program shared by its clients; stopped with the last client', async () => {
  const d = dir();
  const paths = { stdout: join(d, 'p.out'), stderr: join(d, 'p.err') };
  writeFileSync(paths.stdout, '');
  writeFileSync(paths.stderr, '');
  const hub = new LogHub({ paths: () => paths, now: () => 1_700_000_000_500, follow: { pollMs: 20 } });
  const a = new FakeClient();
  const b = new FakeClient();
  const leaveA = await hub.join('p', a);
  const leaveB = await hub.join('p', b);
  assert.equal(hub.followedPrograms, 1);
  appendFileSync(paths.stdout, 'hello\n');
  appendFileSync(paths.stderr, 'oops\n');
  await until(() => a.lines.length === 2 && b.lines.length === 2, 'both clients get both lines');
  assert.deepEqual(a.lines.find((l) => l.source === 'stdout'), { source: 'stdout', content: 'hello', ts: 1_700_000_000.5 });
  assert.deepEqual(b.lines.find((l) => l.source === 'stderr'), { source: 'stderr', content: 'oops', ts: 1_700_000_000.5 });
  leaveA();
  assert.equal(hub.followedPrograms, 1);
  leaveB();
  assert.equal(hub.followedPrograms, 0);
  rmSync(d, { recursive: true });
});

test('hub: a slow client is dropped with 4429; the others keep receiving', async () => {
  const d = dir();
  const paths = { stdout: join(d, 'p.out'), stderr: join(d, 'p.err') };
  const hub = new LogHub({ paths: () => paths, slowBytes: 1000, follow: { pollMs: 20 } });
  const slow = new FakeClient();
  const fast = new FakeClient();
  await hub.join('p', slow);
  await hub.join('p', fast);
  slow.bufferedAmount = 5000;
  writeFileSync(paths.stdout, 'line 1\n');
  await until(() => fast.lines.length === 1, 'fast client line');
  assert.equal(slow.closed?.code, CLOSE.tooSlow);
  assert.equal(slow.lines.length, 0);
  appendFileSync(paths.stdout, 'line 2\n');
  await until(() => fast.lines.length === 2, 'fast client keeps going');
  hub.closeAll(CLOSE.goingAway, 'bye');
  assert.equal(fast.closed?.code, CLOSE.goingAway);
  assert.equal(hub.followedPrograms, 0);
  rmSync(d, { recursive: true });
});

test('hub: a client that leaves while another is joining does not stop the stream under it', async () => {
  const d = dir();
  const paths = { stdout: join(d, 'p.out'), stderr: join(d, 'p.err') };
  writeFileSync(paths.stdout, '');
  const hub = new LogHub({ paths: () => paths, follow: { pollMs: 20 } });
  const a = new FakeClient();
  const b = new FakeClient();
  const joiningA = hub.join('p', a); // the followers are still reading where the files end
  const leaveB = await hub.join('p', b);
  leaveB(); // the dashboard's tab closed at once, say
  const leaveA = await joiningA;
  assert.equal(hub.followedPrograms, 1, 'a is still following');
  appendFileSync(paths.stdout, 'for a\n');
  await until(() => a.lines.length === 1, 'the line reaches the client that stayed');
  leaveA();
  assert.equal(hub.followedPrograms, 0);
  rmSync(d, { recursive: true });
});

test('follower: stopped while it starts, it arms no poll', async () => {
  const d = dir();
  const f = new FileFollower(join(d, 'p.out'), () => undefined, { pollMs: 20 });
  const starting = f.start();
  f.stop();
  await starting;
  assert.equal((f as unknown as { poll: unknown }).poll, null, 'no interval left behind');
  rmSync(d, { recursive: true });
});

test('hub: refresh follows a changed log path from its end; an unchanged one keeps its follower', async () => {
  const d = dir();
  let paths = { stdout: join(d, 'old.out'), stderr: join(d, 'p.err') };
  writeFileSync(paths.stdout, '');
  writeFileSync(paths.stderr, '');
  const hub = new LogHub({ paths: () => paths, follow: { pollMs: 20 } });
  const a = new FakeClient();
  const leave = await hub.join('p', a);
  writeFileSync(join(d, 'new.out'), 'written before the switch\n');
  paths = { ...paths, stdout: join(d, 'new.out') };
  await hub.refresh('p');
  appendFileSync(join(d, 'old.out'), 'old file\n');
  appendFileSync(join(d, 'new.out'), 'new file\n');
  appendFileSync(paths.stderr, 'err\n');
  await until(() => a.lines.length === 2, 'a line of each source');
  assert.deepEqual(a.lines.map((l) => `${l.source} ${l.content}`).sort(), ['stderr err', 'stdout new file']);
  leave();
  await hub.refresh('p'); // nobody follows it any more: nothing to do
  assert.equal(hub.followedPrograms, 0);
  rmSync(d, { recursive: true });
});
