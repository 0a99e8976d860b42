// `svc login` at a terminal: the secret typed at its prompt is not echoed, and it is saved for
// this user only. The terminal is util-linux script(1)'s pseudo-terminal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SVC, useDaemon } from '../helpers/daemon.js';
import { runCli } from '../helpers/cli.js';

const SECRET = 'typed-at-the-prompt-7f3a';
const d = useDaemon({ config: `[server]\nport = 0\nauth_secret = "${SECRET}"\n` });
const skip = existsSync('/usr/bin/script') ? false : 'script(1) (util-linux) is not installed';

/** Runs `svc ARGS` on a pseudo-terminal, types `input` once the prompt shows, returns what the terminal showed. */
function atTerminal(args: string[], input: string, env: Record<string, string>): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, SVC, ...args].map((a) => `'${a}'`).join(' ');
  const { SVC_TOKEN: _prompted, ...inherited } = process.env; // so that login asks
  const child = spawn('/usr/bin/script', ['-qfec', command, '/dev/null'], { env: { ...inherited, ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
  let screen = '';
  let typed = false;
  child.stdout.on('data', (chunk: Buffer) => {
    screen += chunk.toString('utf8');
    // Typed only once the prompt is out: readline has the terminal in raw mode by then, so any echo is svc's own.
    if (!typed && screen.includes('svcd secret')) {
      typed = true;
      child.stdin.write(`${input}\r`);
    }
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, screen })));
}

test('svc login at a terminal does not show the secret typed, saves it mode 600, and later commands use it', { skip }, async () => {
  const env = { SVC_URL: d.url, XDG_CONFIG_HOME: join(d.root, 'home-config') };
  const login = await atTerminal(['login'], SECRET, env);
  assert.equal(login.code, 0, login.screen);
  assert.match(login.screen, /logged in to http:\/\/127\.0\.0\.1:\d+/);
  assert.ok(!login.screen.includes(SECRET), `the terminal showed the secret: ${JSON.stringify(login.screen)}`);
  const file = join(env.XDG_CONFIG_HOME, 'svc', 'credentials.json');
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.equal(statSync(join(env.XDG_CONFIG_HOME, 'svc')).mode & 0o777, 0o700);
  const list = await runCli(['list'], env);
  assert.equal(list.code, 0, list.stderr);
});

test('an empty SVC_TOKEN counts as unset: the credential svc login saved is used, and svc login asks for one', async () => {
  const env = { SVC_URL: d.url, XDG_CONFIG_HOME: join(d.root, 'empty-env-config') };
  assert.equal((await runCli(['login', '--token', SECRET], env)).code, 0);
  const list = await runCli(['list'], { ...env, SVC_TOKEN: '' });
  assert.equal(list.code, 0, list.stderr);
  // Standard input is not a terminal here: login reads the credential from it rather than refusing.
  const login = await runCli(['login'], { ...env, SVC_TOKEN: '' }, undefined, SECRET);
  assert.equal(login.code, 0, login.stderr);
});
