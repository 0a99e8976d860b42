import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserRefusal } from '../../../api/auth/browser-guard.js';

const served = (host: string, origin = '', forwarded = '', configured = '127.0.0.1') => browserRefusal(host, origin, forwarded, configured) === null;

test('open mode serves requests addressed to an IP address, localhost or [server].host, and no other name', () => {
  for (const host of ['127.0.0.1:9002', '127.0.0.1', '[::1]:9002', '10.0.0.5:9002', 'localhost:9002', 'Localhost', 'app.localhost:9002', '']) assert.ok(served(host), host);
  assert.ok(served('svc-box:9002', '', '', 'svc-box'), 'the configured host name');
  assert.ok(served('[::1]:9002', '', '', '::1'));
  for (const host of ['attacker.example:9002', 'localhost.attacker.example', '127.0.0.1.nip.io:9002', 'svc-box:9002', 'a b']) assert.ok(!served(host), host);
});

test('open mode serves a browser only from svcd\'s own origin, or the one a proxy forwards', () => {
  assert.ok(served('127.0.0.1:9002', 'http://127.0.0.1:9002'));
  assert.ok(served('localhost:9002', 'http://LOCALHOST:9002'));
  assert.ok(served('[::1]:9002', 'http://[::1]:9002'));
  assert.ok(served('127.0.0.1:9002', 'https://svc.example.com', 'svc.example.com'));
  assert.ok(served('127.0.0.1:9002', 'https://svc.example.com', 'other.example, svc.example.com'));
  for (const origin of ['https://evil.example', 'http://127.0.0.1:9003', 'null', 'file:///tmp/a.html', 'not a url', 'http://127.0.0.1:9002.evil.example']) {
    assert.ok(!served('127.0.0.1:9002', origin), origin);
  }
  assert.match(browserRefusal('127.0.0.1:9002', 'https://evil.example', '', '127.0.0.1') ?? '', /^forbidden: a request from the web page at https:\/\/evil\.example is refused/);
});
