import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memberGroups } from '../../../../controllers/os/user-db.js';

test("a user's supplementary groups are the /etc/group rows whose member list names it exactly", () => {
  const groupFile = ['root:x:0:', 'ssl-cert:x:103:postgres', 'docker:x:998:alice,postgres,bob', 'postgres:x:104:', 'pg:x:105:postgresql', 'broken:x:notanumber:postgres', 'short:x:7', ''].join('\n');
  assert.deepEqual(memberGroups(groupFile, 'postgres'), [103, 998]);
  assert.deepEqual(memberGroups(groupFile, 'bob'), [998]);
  assert.deepEqual(memberGroups(groupFile, 'nobody'), []);
});
