// Users and groups beyond /etc/passwd and /etc/group (LDAP, sssd, systemd's dynamic users):
// UserDb asks getent when the files do not have them, keeps its answers for a while, and never
// runs it for a user the files have. getent is played by a script that logs each query.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeRoot, tempRoot } from '../../helpers/daemon.js';
import { UserDb } from '../../../controllers/os/user-db.js';

const root = tempRoot('svc-userdb-');
after(() => removeRoot(root));
const log = join(root, 'getent.log');
const getent = join(root, 'getent');
writeFileSync(
  getent,
  `#!/bin/sh
echo "$*" >> '${log}'
case "$1 $2" in
  "passwd ldapuser"|"passwd 4242") echo "ldapuser:*:4242:4300:LDAP user:/home/ldapuser:/bin/bash" ;;
  "initgroups ldapuser") echo "ldapuser             4300 5000 5001" ;;
  "group ldapgroup"|"group 5000") echo "ldapgroup:*:5000:ldapuser" ;;
  "passwd broken") exit 1 ;;
  *) exit 2 ;;
esac
`,
);
chmodSync(getent, 0o755);
const passwdFile = join(root, 'passwd');
const groupFile = join(root, 'group');
writeFileSync(passwdFile, 'root:x:0:0:root:/root:/bin/bash\nalice:x:1000:1000::/home/alice:/bin/sh\n');
writeFileSync(groupFile, 'root:x:0:\nstaff:x:50:alice\nalice:x:1000:\n');
const queries = () => readFileSync(log, 'utf8').trim().split('\n');

test('files first; an NSS-only user and group come from getent, with its groups; answers are kept for a while', () => {
  let now = 0;
  const db = new UserDb({ passwdFile, groupFile, getent, keepMs: 30_000, now: () => now });
  assert.deepEqual(db.lookupUser('alice'), { name: 'alice', uid: 1000, gid: 1000, home: '/home/alice', groups: [50] });
  assert.equal(db.lookupGroup('staff'), 50);
  assert.throws(() => readFileSync(log), /ENOENT/, 'a user of the files never runs getent');

  assert.deepEqual(db.lookupUser('ldapuser'), { name: 'ldapuser', uid: 4242, gid: 4300, home: '/home/ldapuser', groups: [4300, 5000, 5001] });
  assert.equal(db.lookupUser(4242)?.name, 'ldapuser');
  assert.equal(db.lookupGroup('ldapgroup'), 5000);
  assert.equal(db.lookupUser('nobody-here'), null);
  assert.deepEqual(queries(), ['passwd ldapuser', 'initgroups ldapuser', 'passwd 4242', 'group ldapgroup', 'passwd nobody-here']);

  // Within keepMs nothing runs again, found or not; after it, each is asked again.
  db.lookupUser('ldapuser');
  db.lookupUser('nobody-here');
  assert.equal(queries().length, 5);
  now = 30_000;
  db.lookupUser('nobody-here');
  assert.equal(queries().length, 6);
});

test('a getent that fails (not "no such entry") is not kept; option-like and empty names are never passed to it', () => {
  const db = new UserDb({ passwdFile, groupFile, getent, now: () => 0 });
  const before = queries().length;
  assert.equal(db.lookupUser('broken'), null);
  assert.equal(db.lookupUser('broken'), null);
  assert.equal(queries().length, before + 2, 'asked again: the source may be back');
  assert.equal(db.lookupUser('--help'), null);
  assert.equal(db.lookupGroup(''), null);
  assert.equal(queries().length, before + 2);
  assert.equal(new UserDb({ passwdFile, groupFile, getent: null }).lookupUser('ldapuser'), null, 'files only');
});
