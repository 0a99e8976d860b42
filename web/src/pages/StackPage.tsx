import { useRef, useState } from 'react';
import { ApiError, errorText } from '../api/http.js';
import type { StackResponse } from '../api/types.js';
import { useServices } from '../app/context.js';
import { PlanView } from '../components/PlanView.js';
import { WaitView } from '../components/WaitView.js';
import { useDraft } from '../logic/drafts.js';
import { may } from '../logic/permissions.js';
import { parsePlan } from '../logic/plan.js';
import { placeRange, stackErrorParts, stackFileLabel, type TextPlace } from '../logic/stack-error.js';
import { DEFAULT_WAIT_SECS, lostWait, stackPrograms, WAIT_CHOICES_SECS, waitingLine, waitLabel, type WaitSecs } from '../logic/stack-wait.js';
import { CONTENT_TYPES, defaultSource, formatOfFile, guessFormat, type StackFormat } from '../logic/stack-format.js';

const EXAMPLE = `# A stack: every program it lists is created or updated; with prune, the programs
# an earlier apply of the same source created and this one no longer lists are removed.
[[services]]
name = "web"
command = "python3"
args = ["-m", "http.server", "8080"]
`;

interface Request {
  text: string;
  format: StackFormat;
  prune: boolean;
  source: string;
}

const same = (a: Request, b: Request) => a.text === b.text && a.format === b.format && a.prune === b.prune && a.source === b.source;

/**
 * Paste or upload a stack (TOML, YAML or JSON), see its dry-run plan (`PUT /api/v1/stack?
 * dry_run=true`), then apply exactly what was planned. Editing anything invalidates the plan.
 * Optionally the apply waits until the stack's programs are ready (`?wait=`) and shows how each
 * came out; the wait is not part of the plan, so changing it keeps the plan.
 */
export function StackPage() {
  const { http, feed, role } = useServices();
  // What the user typed or uploaded stays while they look at other pages (logic/drafts.ts).
  const [text, setText] = useDraft('stack.text', '');
  const [file, setFile] = useDraft<string | null>('stack.file', null);
  const [format, setFormat] = useDraft<StackFormat | 'auto'>('stack.format', 'auto');
  const [prune, setPrune] = useDraft('stack.prune', false);
  const [source, setSource] = useDraft('stack.source', defaultSource(null));
  const [wait, setWait] = useDraft('stack.wait', false);
  const [waitSecs, setWaitSecs] = useDraft<WaitSecs>('stack.waitSecs', DEFAULT_WAIT_SECS);
  const [plan, setPlan] = useState<{ req: Request; res: StackResponse } | null>(null);
  const [applied, setApplied] = useState<StackResponse | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // While an apply with ?wait= is out: what the page says it waits for.
  const [waiting, setWaiting] = useState<string | null>(null);
  // What svcd calls the text in its positions, as sent (stack.toml, or the uploaded file's name).
  const [sentAs, setSentAs] = useState('');
  const editor = useRef<HTMLTextAreaElement>(null);
  const req: Request = { text, format: format === 'auto' ? (file ? (formatOfFile(file) ?? guessFormat(text)) : guessFormat(text)) : format, prune, source };
  const planned = plan !== null && same(plan.req, req);
  // PUT /api/v1/stack, the dry run too, is stack.apply (admin): lower roles would only get 403s.
  const canApply = may(role, 'stack.apply');

  const send = async (dryRun: boolean) => {
    setBusy(true);
    setError(null);
    setSentAs(stackFileLabel(req.source, req.format));
    try {
      // The apply carries the plan it was shown: svcd refuses it (409, nothing changed) if
      // programs changed since, rather than doing something nobody reviewed.
      // Checked, the box forces a prune; unchecked it sends nothing, so a stack that says
      // `prune = true` prunes as its text says (the dry run shows it); ?prune=false would override that.
      const q = new URLSearchParams({ dry_run: String(dryRun), source: req.source, ...(req.prune ? { prune: 'true' } : {}) });
      if (!dryRun && plan?.res.plan) q.set('plan', plan.res.plan);
      // svcd answers once the programs are ready, one fails, or the time is up; the request has
      // no time limit of its own (api/http.ts), so the answer is read whenever it comes.
      if (!dryRun && wait) {
        q.set('wait', String(waitSecs));
        setWaiting(waitingLine(plan ? stackPrograms(parsePlan(plan.res.lines)) : 0, waitSecs));
      }
      const res = await http.send<StackResponse>('PUT', `/api/v1/stack?${q}`, req.text, CONTENT_TYPES[req.format]);
      if (dryRun) {
        setPlan({ req, res });
        setApplied(null);
      } else {
        setApplied(res);
        setPlan(null);
        feed.refresh();
      }
    } catch (err) {
      setError(!dryRun && wait ? lostWait(err) : err);
      // A refused dry run has no plan; an apply refused because the plan changed needs a new one.
      if (dryRun || (err instanceof ApiError && err.status === 409)) setPlan(null);
    } finally {
      setBusy(false);
      setWaiting(null);
    }
  };

  /** Puts the caret at a place the daemon's message names (the stack text is the editor's). */
  const goTo = (at: TextPlace) => {
    const el = editor.current;
    if (!el) return;
    const { start, end } = placeRange(el.value, at);
    el.focus();
    el.setSelectionRange(start, end);
  };

  return (
    <section className="page stack-page" aria-labelledby="stack-title">
      <div className="toolbar">
        <h1 id="stack-title">Stack</h1>
        <span className="muted">Declare programs in a file; see the plan first, then apply it.</span>
      </div>
      {!canApply && (
        <p className="muted">
          Planning and applying a stack needs the admin role; this session is {role}. <code>svc check FILE</code> validates a stack file without a daemon.
        </p>
      )}
      {canApply && (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            void send(true);
          }}
        >
          <div className="row">
            <label>
              Upload a file{' '}
              <input
                type="file"
                accept=".toml,.yaml,.yml,.json"
                onChange={(e) => {
                  const f = e.target.files?.[0];
                  if (!f) return;
                  void f.text().then((t) => {
                    setText(t);
                    setFile(f.name);
                    setSource(defaultSource(f.name));
                  });
                }}
              />
            </label>
            <label>
              Format{' '}
              <select value={format} onChange={(e) => setFormat(e.target.value as StackFormat | 'auto')}>
                <option value="auto">detect ({req.format.toUpperCase()})</option>
                <option value="toml">TOML</option>
                <option value="yaml">YAML</option>
                <option value="json">JSON</option>
              </select>
            </label>
            <label>
              Source label <input value={source} onChange={(e) => setSource(e.target.value)} size={24} aria-describedby="source-help" />
            </label>
            <label className="check">
              <input type="checkbox" checked={prune} onChange={(e) => setPrune(e.target.checked)} /> Prune programs of this source that the stack no longer lists
            </label>
          </div>
          <p id="source-help" className="muted small">
            The source label scopes pruning: only programs last written with the same label can be pruned.
          </p>
          <div className="row">
            <label className="check">
              <input type="checkbox" checked={wait} onChange={(e) => setWait(e.target.checked)} aria-describedby="wait-help" /> Apply waits until the programs are ready
            </label>
            <label>
              Wait at most{' '}
              <select value={waitSecs} disabled={!wait} onChange={(e) => setWaitSecs(Number(e.target.value) as WaitSecs)}>
                {WAIT_CHOICES_SECS.map((secs) => (
                  <option key={secs} value={secs}>
                    {waitLabel(secs)}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <p id="wait-help" className="muted small">
            Checked, Apply answers once each program of the stack is ready (Healthy with a health check, else Running for 1 s; Scheduled for cron; exited as expected for a
            one-shot), one fails, or the time is up. The dry run never waits.
          </p>
          <label>
            Stack
            <textarea
              ref={editor}
              className="code"
              name="stack"
              rows={16}
              spellCheck={false}
              placeholder={EXAMPLE}
              value={text}
              onChange={(e) => setText(e.target.value)}
              aria-invalid={error !== null}
              aria-describedby={error !== null ? 'stack-error' : undefined}
            />
          </label>
          {error !== null && (
            <p className="error-note" role="alert" id="stack-error">
              {stackErrorParts(errorText(error), sentAs).map((part, i) =>
                typeof part === 'string' ? (
                  <span key={i}>{part}</span>
                ) : (
                  <button key={i} type="button" className="link" onClick={() => goTo(part)}>
                    line {part.line}, column {part.column}
                  </button>
                ),
              )}
            </p>
          )}
          <div className="buttons">
            <button type="submit" disabled={busy || !text.trim()}>
              Plan (dry run)
            </button>
            <button type="button" className="primary" disabled={busy || !planned} aria-busy={waiting !== null} onClick={() => void send(false)} title={planned ? undefined : 'Run the dry run of this text first'}>
              {waiting !== null ? 'Applying…' : 'Apply'}
            </button>
          </div>
          {/* Always there, so that a screen reader reads the line when it is filled in. */}
          <p className="muted wait-progress" role="status">
            {waiting !== null ? `Applying the plan, then ${waiting}` : ''}
          </p>
        </form>
      )}
      {plan && <PlanView plan={parsePlan(plan.res.lines)} done={false} />}
      {plan && !planned && <p className="muted">The stack changed since this plan: run the dry run again before applying.</p>}
      {applied && <PlanView plan={parsePlan(applied.lines)} done />}
      {applied?.wait && <WaitView wait={applied.wait} />}
    </section>
  );
}
