import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { startDaemon, removeRoot, fixture, eventually, SVC, tempRoot } from '../helpers/daemon.js';
import { runCli } from '../helpers/cli.js';
import { licensedRoot, testSigner } from '../helpers/license.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;

void test('svc ui without a terminal explains itself and exits 2', async () => {
  const r = await runCli(['ui'], { SVC_URL: 'http://127.0.0.1:1' });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /svc ui needs an interactive terminal; use svc list \/ svc events \/ svc logs instead/);
  const alias = await runCli(['top'], { SVC_URL: 'http://127.0.0.1:1' });
  assert.equal(alias.code, 2);
});

void test('svc ui in tmux: shows the programs, stops one after confirmation', { skip: hasTmux ? false : 'tmux is not installed (scripts/install-system-deps.sh installs it)' }, async () => {
  const d = await startDaemon();
  const session = `svc-ui-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
  const screen = () => tmux('capture-pane', '-p', '-t', session);
  try {
    for (const name of ['alpha', 'beta']) {
      const res = await d.request('POST', '/api/v1/programs', { name, command: process.execPath, args: [fixture('forever.js')] });
      assert.equal(res.status, 201);
    }
    await eventually(async () => (await d.request('GET', '/api/v1/programs')).body.every((p: any) => p.status === 'Running'), 10_000, 'programs running');
    tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '45', '-e', `SVC_URL=${d.url}`, `${process.execPath} ${SVC} ui`);
    await eventually(() => /alpha\s+Running/.test(screen()) && /beta\s+Running/.test(screen()), 15_000, 'program table');
    assert.match(screen(), /NAME/);
    tmux('send-keys', '-t', session, 'x');
    await eventually(() => screen().includes('stop alpha? [y/N]'), 5000, 'confirmation');
    tmux('send-keys', '-t', session, 'y');
    await eventually(() => /alpha\s+Stopped/.test(screen()), 15_000, 'alpha Stopped');
    const alpha = (await d.request('GET', '/api/v1/programs')).body.find((p: any) => p.name === 'alpha');
    assert.equal(alpha.status, 'Stopped');
    // Keys typed in one burst (one read) all count: the filter prompt shows all of them.
    tmux('send-keys', '-t', session, '-l', '/be');
    await eventually(() => screen().includes('/be') && !/alpha\s+Stopped/.test(screen()), 5000, 'the /be filter');
    tmux('send-keys', '-t', session, 'Enter');
    await eventually(() => screen().includes('filter: be'), 5000, 'the filter applied');
    // Esc clears the filter; the program the filter selected stays selected.
    tmux('send-keys', '-t', session, 'Escape');
    await eventually(() => /alpha\s+Stopped/.test(screen()) && !screen().includes('filter: be'), 5000, 'the filter cleared');
    assert.match(screen(), /^ >beta/m);
    tmux('send-keys', '-t', session, 'q');
    // q ends svc ui, and with it the tmux session.
    await eventually(() => spawnSync('tmux', ['has-session', '-t', session]).status !== 0, 5000, 'svc ui to quit');
  } finally {
    spawnSync('tmux', ['kill-session', '-t', session]);
    await d.stop();
    removeRoot(d.root);
  }
});

void test('svc ui with a credential svcd refuses says so and exits 1 (it retried for good behind a cut banner)', { skip: hasTmux ? false : 'tmux is not installed (scripts/install-system-deps.sh installs it)' }, async () => {
  const d = await startDaemon(undefined, { config: '[server]\nport = 0\nauth_secret = "the-right-secret"\n' });
  const session = `svc-ui-401-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
  try {
    // The shell stays after svc ui so that the pane can be read.
    tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '20', '-e', `SVC_URL=${d.url}`, '-e', 'SVC_TOKEN=a-wrong-one', `sh -c '${process.execPath} ${SVC} ui; echo "exit=$?"; sleep 60'`);
    await eventually(() => tmux('capture-pane', '-p', '-t', session).includes('exit='), 15_000, 'svc ui to end');
    const screen = tmux('capture-pane', '-p', '-t', session);
    assert.match(screen, /svc: .*\(use --token or SVC_TOKEN\)/);
    assert.match(screen, /exit=1/);
  } finally {
    spawnSync('tmux', ['kill-session', '-t', session]);
    await d.stop();
    removeRoot(d.root);
  }
});

void test('svc ui ended by SIGTERM gives the terminal back (main screen, cooked mode) and exits 143', { skip: hasTmux ? false : 'tmux is not installed (scripts/install-system-deps.sh installs it)' }, async () => {
  const session = `svc-ui-term-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
  const screen = () => tmux('capture-pane', '-p', '-t', session);
  try {
    // No daemon is needed: the dashboard opens and waits for one. The shell stays to be read.
    tmux('new-session', '-d', '-s', session, '-x', '120', '-y', '20', '-e', 'SVC_URL=http://127.0.0.1:1', `sh -c '${process.execPath} ${SVC} ui; echo "exit=$?"; stty -a; sleep 60'`);
    await eventually(() => screen().includes('disconnected'), 15_000, 'the dashboard');
    const shell = tmux('display', '-p', '-t', session, '#{pane_pid}').trim();
    const ui = execFileSync('pgrep', ['-P', shell], { encoding: 'utf8' }).trim();
    process.kill(Number(ui), 'SIGTERM');
    await eventually(() => screen().includes('exit='), 15_000, 'svc ui to end');
    assert.match(screen(), /exit=143/);
    assert.equal(tmux('display', '-p', '-t', session, '#{alternate_on}').trim(), '0', 'back on the main screen');
    assert.match(screen(), /(^|\s)icanon\b/m, 'the terminal is out of raw mode');
    assert.match(screen(), /(^|\s)echo\b/m, 'typed keys echo again');
  } finally {
    spawnSync('tmux', ['kill-session', '-t', session]);
  }
});

void test('svc ui whose credential svcd stops taking (auth_secret changed) ends saying so, exit 1; it retried for good behind a cut banner', { skip: hasTmux ? false : 'tmux is not installed (scripts/install-system-deps.sh installs it)' }, async () => {
  let d = await startDaemon(undefined, { config: '[server]\nport = 0\nauth_secret = "the-first-secret-0123"\n' });
  const session = `svc-ui-refused-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
  const screen = () => tmux('capture-pane', '-p', '-t', session);
  try {
    tmux('new-session', '-d', '-s', session, '-x', '200', '-y', '20', '-e', `SVC_URL=${d.url}`, '-e', 'SVC_TOKEN=the-first-secret-0123', `sh -c '${process.execPath} ${SVC} ui; echo "exit=$?"; sleep 60'`);
    await eventually(() => screen().includes('0 programs'), 15_000, 'the dashboard');
    await d.stop();
    const port = new URL(d.url).port;
    d = await startDaemon(d.root, { config: `[server]\nport = ${port}\nauth_secret = "the-second-secret-456"\n` });
    await eventually(() => screen().includes('exit='), 30_000, 'svc ui to end');
    assert.match(screen(), /svc: authentication failed: .*\(use --token or SVC_TOKEN\)/);
    assert.match(screen(), /exit=1/);
  } finally {
    spawnSync('tmux', ['kill-session', '-t', session]);
    await d.stop();
    removeRoot(d.root);
  }
});

void test("svc ui with a viewer token refuses stop at its key, before asking y/N (the credential's role is read at start)", { skip: hasTmux ? false : 'tmux is not installed (scripts/install-system-deps.sh installs it)' }, async () => {
  const secret = 'tui-viewer-admin-secret';
  const root = tempRoot('svc-ui-viewer-');
  const d = await startDaemon(root, { config: licensedRoot(root, testSigner(), { secret }) });
  const session = `svc-ui-viewer-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
  const screen = () => tmux('capture-pane', '-p', '-t', session);
  try {
    const admin = { authorization: `Bearer ${secret}` };
    const viewer = (await d.request('POST', '/api/v1/auth/tokens', { name: 'reader', role: 'viewer' }, admin)).body.secret as string;
    assert.equal((await d.request('POST', '/api/v1/programs', { name: 'alpha', command: process.execPath, args: [fixture('forever.js')] }, admin)).status, 201);
    tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '40', '-e', `SVC_URL=${d.url}`, '-e', `SVC_TOKEN=${viewer}`, `${process.execPath} ${SVC} ui`);
    await eventually(() => /alpha\s+Running/.test(screen()), 15_000, 'program table');
    tmux('send-keys', '-t', session, 'x');
    await eventually(() => screen().includes('stop needs the operator role; this credential is a viewer'), 5000, 'the refusal');
    assert.doesNotMatch(screen(), /\[y\/N\]/);
    tmux('send-keys', '-t', session, 'q');
    await eventually(() => spawnSync('tmux', ['has-session', '-t', session]).status !== 0, 5000, 'svc ui to quit');
    assert.equal((await d.request('GET', '/api/v1/programs', undefined, admin)).body[0].status, 'Running');
  } finally {
    spawnSync('tmux', ['kill-session', '-t', session]);
    await d.stop();
    removeRoot(d.root);
  }
});

/** Colour parameters of the SGR sequences in `text` (foreground, background, 256 and true colour). */
function colourCodes(text: string): string[] {
  const codes: string[] = [];
  // eslint-disable-next-line no-control-regex -- SGR sequences are what is looked for
  for (const m of text.matchAll(/\x1b\[([0-9;]*)m/g)) {
    for (const p of (m[1] ?? '').split(';')) if (/^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$/.test(p)) codes.push(p);
  }
  return codes;
}

void test('svc ui draws in colour (CI set or not), and with NO_COLOR in none, a program\'s own colours in its logs included', { skip: hasTmux ? false : 'tmux is not installed (scripts/install-system-deps.sh installs it)' }, async () => {
  const d = await startDaemon();
  const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
  const sessions: string[] = [];
  /** The screen of svc ui in a new tmux session with `env`, once it shows the program and its red log line. */
  const screenWith = async (env: string[]) => {
    const session = `svc-ui-colour-${process.pid}-${sessions.length}`;
    sessions.push(session);
    // env(1) sets the variables for svc ui alone, whatever the tmux server inherited.
    tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '30', `env -u NO_COLOR -u FORCE_COLOR ${env.join(' ')} SVC_URL=${d.url} ${process.execPath} ${SVC} ui`);
    const screen = () => tmux('capture-pane', '-p', '-e', '-t', session);
    await eventually(() => /painter.*Running/.test(screen()) && screen().includes('red alert'), 15_000, 'the table and the log line');
    return screen();
  };
  try {
    // Written so that the command line, which the detail pane shows, does not read 'red alert'.
    const red = 'console.log("\\x1b[31m" + "red" + " alert" + "\\x1b[0m"); setInterval(() => {}, 1000)';
    assert.equal((await d.request('POST', '/api/v1/programs', { name: 'painter', command: process.execPath, args: ['-e', red] })).status, 201);
    await eventually(async () => (await d.request('GET', '/api/v1/programs')).body.every((p: any) => p.status === 'Running'), 10_000, 'program running');
    // As under a CI runner that gives the session a terminal (.ci/run drives tmux).
    const coloured = colourCodes(await screenWith(['CI=true']));
    assert.ok(coloured.includes('32'), `Running is green: ${coloured.join(' ')}`);
    assert.ok(coloured.includes('31'), `the program's red is kept: ${coloured.join(' ')}`);
    assert.deepEqual(colourCodes(await screenWith(['NO_COLOR=1'])), [], 'no colour codes with NO_COLOR');
  } finally {
    for (const session of sessions) spawnSync('tmux', ['kill-session', '-t', session]);
    await d.stop();
    removeRoot(d.root);
  }
});
