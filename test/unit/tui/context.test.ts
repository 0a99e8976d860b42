import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { createContext } from '../../../tui/cli/context.js';
import { saveToken, credentialsFile } from '../../../tui/cli/credentials.js';

const contextWith = (env: NodeJS.ProcessEnv, argv: string[] = []) => {
  const program = new Command('svc').option('--url <url>').option('--token <secret>').option('--json');
  program.parse(argv, { from: 'user' });
  return createContext(program, env);
};

test('an empty SVC_URL or SVC_TOKEN is as if unset (SVC_URL= svc list): the default address, the saved login', async () => {
  const home = mkdtempSync(join(tmpdir(), 'svc-context-'));
  try {
    await saveToken('http://127.0.0.1:9002', 'saved-secret', credentialsFile({ XDG_CONFIG_HOME: home }));
    const client = contextWith({ SVC_URL: '', SVC_TOKEN: '', XDG_CONFIG_HOME: home }).client();
    assert.equal(client.url, 'http://127.0.0.1:9002');
    assert.equal(client.token, 'saved-secret');
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('a bad address is named after where it came from: --url or SVC_URL', () => {
  assert.throws(() => contextWith({ SVC_URL: 'ftp://example.org' }).client(), { message: "SVC_URL: unsupported scheme 'ftp:' in 'ftp://example.org' (use http, https or unix:)" });
  assert.throws(() => contextWith({ SVC_URL: 'http://127.0.0.1:9002' }, ['--url', 'ftp://example.org']).client(), { message: "--url: unsupported scheme 'ftp:' in 'ftp://example.org' (use http, https or unix:)" });
});
