import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../../conf/load-config.js';
import { gitSourceConfig } from '../../helpers/git-repo.js';

const load = (toml: string) => {
  const root = mkdtempSync(join(tmpdir(), 'svc-conf-git-'));
  try {
    mkdirSync(join(root, 'conf'));
    writeFileSync(join(root, 'conf', 'svc.toml'), toml);
    return { root, config: loadConfig(root) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
};
const problem = (toml: string) => {
  try {
    load(toml);
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return err.message;
  }
  assert.fail('expected a ConfigError');
};

test('[[stacks.git]]: defaults, local paths under SVC_ROOT, host from [stacks] host or the OS', () => {
  const { root, config } = load('[stacks]\nhost = "web-1"\n[[stacks.git]]\nname = "fleet"\nurl = "repos/fleet.git"\n[[stacks.git]]\nname = "tagged"\nurl = "https://git.example/x.git"\ntag = "v1"\npath = "/deploy/"\ninterval_secs = 5\ntoken_file = "conf/token"\nhost = "other"\nallow_drift = true\n');
  // The defaults, as the tests' gitSourceConfig builds them (which this keeps true to svc.toml).
  assert.deepEqual(config.git?.[0], gitSourceConfig({ url: join(root, 'repos/fleet.git'), host: 'web-1' }));
  const t = config.git?.[1];
  assert.deepEqual([t?.ref, t?.path, t?.interval_secs, t?.token_file, t?.host, t?.allow_drift], [{ kind: 'tag', name: 'v1' }, 'deploy', 5, join(root, 'conf/token'), 'other', true]);
  assert.equal(load('[[stacks.git]]\nname = "a"\nurl = "ssh://git@host/x.git"\n').config.git?.[0]?.host, hostname());
  assert.deepEqual(load('[server]\nport = 0\n').config.git, []);
});

test('[[stacks.git]]: url is a local path only as git reads one (no colon, or a slash before it); scp-like addresses are kept', () => {
  const url = (u: string) => {
    const { root, config } = load(`[[stacks.git]]\nname = "a"\nurl = "${u}"\n`);
    return config.git?.[0]?.url.replace(root, '$ROOT');
  };
  assert.equal(url('git.example.com:ops/fleet.git'), 'git.example.com:ops/fleet.git', 'host:path is ssh (user from ~/.ssh/config)');
  assert.equal(url('git@git.example.com:ops/fleet.git'), 'git@git.example.com:ops/fleet.git');
  assert.equal(url('ssh://git@host:22/x.git'), 'ssh://git@host:22/x.git');
  assert.equal(url('repos/a:b.git'), '$ROOT/repos/a:b.git', 'a slash before the colon: a local path');
  assert.equal(url('/srv/fleet.git'), '/srv/fleet.git');
  assert.equal(url('fleet.git'), '$ROOT/fleet.git');
  assert.match(problem('[[stacks.git]]\nname = "a"\nurl = "--upload-pack=touch x:y"\n'), /svc\.toml:3: stacks\.git\[0\]\.url: must not start with '-'/);
});

test('[[stacks.git]]: bad entries name the entry, the key and the line', () => {
  assert.match(problem('[[stacks.git]]\nname = "a"\n'), /svc\.toml:1: stacks\.git\[0\]\.url: required/);
  assert.match(problem('[[stacks.git]]\nname = "a"\nurl = "x"\nbogus = 1\n'), /svc\.toml:4: stacks\.git\[0\]\.bogus: unknown key/);
  assert.match(problem('[[stacks.git]]\nname = "a"\nurl = "x"\n[[stacks.git]]\nname = "a"\nurl = "y"\n'), /svc\.toml:5: stacks\.git\[1\]\.name: duplicate/);
  assert.match(problem('[[stacks.git]]\nname = "a"\nurl = "x"\nbranch = "m"\ntag = "t"\n'), /stacks\.git\[0\]\.tag: give branch or tag, not both/);
  assert.match(problem('[[stacks.git]]\nname = "a"\nurl = "x"\ninterval_secs = 0\n'), /svc\.toml:4: stacks\.git\[0\]\.interval_secs: must be an integer from 1 to 86400/);
  assert.match(problem('[[stacks.git]]\nname = "a"\nurl = "https://u:secret@host/x.git"\n'), /url: must not carry a password; use token_file/);
  assert.match(problem('[[stacks.git]]\nname = "a"\nurl = "x"\npath = "../up"\n'), /path: must stay inside the repository/);
});
