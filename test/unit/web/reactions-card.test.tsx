import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import { ReactionsCard } from '../../../web/src/components/ReactionsCard.js';
import type { ReactionView, ReactionsStatus } from '../../../state/reactions-view.js';

const reaction = (over: Partial<ReactionView> = {}): ReactionView => ({
  name: 'page', enabled: true, events: ['process_fatal'], programs: ['web-*'], command: ['/bin/page'], shell: false, cwd: '/srv', timeout_secs: 30, max_concurrent: 1,
  cooldown_secs: 0, env_names: [], log_file: '/srv/logs/reactions/page.log', running: 0, runs: { ok: 0, failed: 1, timeout: 0, spawn_failed: 0 },
  skipped: { disabled: 0, cooldown: 0, concurrency: 0 }, last_run: null, ...over,
});
const status = (over: Partial<ReactionsStatus> = {}): ReactionsStatus => ({ file: '/srv/conf/reactions.toml', watching: true, loaded_at: 1, load_error: null, reactions: [], ...over });

test('the reactions card shows the load error above the set in force, each last run, and Test buttons for operators', () => {
  const last = { event_id: 'e', event: 'process_fatal', program_name: 'web-1', started_at: Date.UTC(2026, 0, 1), finished_at: 1, outcome: 'failed' as const, exit_code: 7, signal: null, duration_secs: 0.1, msg: 'failed: exit code 7 after 0.1 s', test: false };
  const html = renderToStaticMarkup(
    <ReactionsCard status={status({ load_error: { at: 1, errors: ['/srv/conf/reactions.toml:3: reaction[0] (name=x).events: unknown event type "nope"'] }, reactions: [reaction({ last_run: last }), reaction({ name: 'quiet', enabled: false })] })} error={null} onTest={() => undefined} />,
  );
  assert.match(html, /role="alert"[^]*was not applied[^]*reactions\.toml:3: reaction\[0\]/);
  assert.match(html, /<b>page<\/b>[^]*on process_fatal of web-\*[^]*tone-bad">failed<\/span>[^]*process_fatal of web-1 · failed: exit code 7/);
  assert.match(html, /<b>quiet<\/b> <span class="badge tone-idle">disabled<\/span>[^]*never run/);
  assert.equal(html.match(/>Test<\/button>/g)?.length, 2);
  const viewer = renderToStaticMarkup(<ReactionsCard status={status({ reactions: [reaction()] })} error={null} />);
  assert.doesNotMatch(viewer, /<button/);
  assert.match(renderToStaticMarkup(<ReactionsCard status={status()} error={null} />), /no reactions/);
});
