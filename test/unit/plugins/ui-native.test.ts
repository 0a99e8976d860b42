// ui.so through koffi: the panels it brings, as svcd reads them at start-up (plugins/ui/native.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UI_PANELS, unlockedPanels } from '../../../api/routes/ui-extensions.js';
import { pluginSpec } from '../../../plugins/host/catalog.js';
import { openPluginLibrary, type PluginLibrary } from '../../../plugins/host/open-library.js';
import { uiPanelsOf } from '../../../plugins/ui/native.js';
import { UI_SO } from '../../helpers/native.js';

test('ui.so brings the panels of docs/web.md, each unlocked by the ui grant and its own feature', () => {
  const lib = openPluginLibrary(UI_SO, pluginSpec('ui')!);
  assert.equal(lib.name, 'ui');
  assert.match(lib.version, /^\d+\.\d+\.\d+$/);
  const panels = uiPanelsOf(lib);
  assert.deepEqual(panels, UI_PANELS);
  assert.deepEqual(unlockedPanels(panels, ['access_tokens', 'audit_log']).map((p) => p.id), [], 'without dashboard_extensions (the ui grant) none');
  assert.deepEqual(unlockedPanels(panels, ['dashboard_extensions', 'notify_channels']).map((p) => p.id), ['notify']);
});

test('a panel list that is short of room, not JSON, or has a bad panel is read again or refused with what is wrong', () => {
  const fake = (answer: string): PluginLibrary =>
    ({
      name: 'ui',
      version: '9.9.9',
      file: '/x/ui.so',
      functions: {
        svc_ui_panels: (out: Buffer, cap: number) => {
          const bytes = Buffer.from(answer);
          if (cap < bytes.length) return -bytes.length;
          bytes.copy(out);
          return bytes.length;
        },
      },
    }) as unknown as PluginLibrary;
  const big = JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ id: `p${i}`, title: 'T'.repeat(60), min_role: 'viewer', feature: 'f' })));
  assert.equal(uiPanelsOf(fake(big)).length, 100, 'more than the first 4 KiB: asked again with the size it needs');
  assert.throws(() => uiPanelsOf(fake('{oops')), /ui plugin: svc_ui_panels is not JSON/);
  assert.throws(() => uiPanelsOf(fake('{}')), /must be a JSON array of panels/);
  assert.throws(() => uiPanelsOf(fake('[{"id":"x","title":"X","min_role":"root","feature":"f"}]')), /panel 0 must be \{id, title, min_role: viewer\|operator\|admin, feature\}/);
});
