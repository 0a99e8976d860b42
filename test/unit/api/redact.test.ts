import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskSecrets, redactConfig, secretValues } from '../../../api/redact.js';
import { redactUrl, REDACTED } from '../../../state/redact-url.js';

test('config redaction: env values, URL passwords and query values; the rest is untouched', () => {
  const config = {
    name: 'web',
    command: 'node server.js',
    args: ['--port', '8080'],
    env: { DB_PASSWORD: 'hunter2hunter', MODE: 'prod' },
    health_check: { type: 'http' as const, url: 'http://user:pw@127.0.0.1:8080/health?key=abc&x=1' },
    artifact: { source: 'https://cdn.example/app.tgz?sig=s3cr3t', checksum: 'a'.repeat(64), destination: '/opt/app' },
  };
  const out = redactConfig(config);
  assert.deepEqual(out.env, { DB_PASSWORD: REDACTED, MODE: REDACTED });
  assert.equal(out.health_check?.url, 'http://user:[redacted]@127.0.0.1:8080/health?key=[redacted]&x=[redacted]');
  assert.equal(out.artifact?.source, 'https://cdn.example/app.tgz?sig=[redacted]');
  assert.deepEqual([out.name, out.command, out.args], [config.name, config.command, config.args]);
  assert.equal(config.env.DB_PASSWORD, 'hunter2hunter', 'the stored config is not modified');
  assert.equal(redactUrl('not a url'), 'not a url');
  assert.equal(redactUrl('http://h/p'), 'http://h/p');
});

test('log masking: env values of 6+ characters, longest first', () => {
  const values = secretValues({ name: 'x', command: 'y', env: { A: 'abc', B: 'secret-token', C: 'secret-token-long' } });
  assert.deepEqual(values, ['secret-token-long', 'secret-token']);
  assert.equal(maskSecrets('t=secret-token-long and secret-token; abc', values), `t=${REDACTED} and ${REDACTED}; abc`);
});
