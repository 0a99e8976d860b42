import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { followLogs, type LogMode } from '../api/log-follow.js';
import { useServices } from '../app/context.js';
import { appendLines, clearLines, EMPTY_LOG, highlight, viewLines, type LogBuffer } from '../logic/log-buffer.js';

const MODE_TEXT: Record<LogMode, string> = { connecting: 'connecting…', live: 'live', reconnecting: 'reconnecting…', closed: 'closed' };

/**
 * A program's logs: the last lines over HTTP, then live over the WebSocket `/ws?id=`. Pause
 * freezes the view (new lines are kept and counted), search filters and highlights, and the
 * stdout/stderr boxes choose the streams. Follows the bottom unless the user scrolled up, also
 * while the lines in view are laid out at their real height.
 */
export function LogViewer({ id }: { id: string }) {
  const { http, token } = useServices();
  const [buf, setBuf] = useState<LogBuffer>(EMPTY_LOG);
  const [mode, setMode] = useState<{ mode: LogMode; reason?: string }>({ mode: 'connecting' });
  const [search, setSearch] = useState('');
  const [stdout, setStdout] = useState(true);
  const [stderr, setStderr] = useState(true);
  const [paused, setPaused] = useState<LogBuffer | null>(null);
  const box = useRef<HTMLPreElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  // Where following the bottom last put the view: a scroll event above it is the user's.
  const followedTo = useRef(0);
  const follow = () => {
    const el = box.current;
    if (!el || !stick.current) return;
    el.scrollTop = el.scrollHeight;
    followedTo.current = el.scrollTop;
  };

  useEffect(() => {
    setBuf(EMPTY_LOG);
    return followLogs(
      { http, id, token: token(), tail: 500 },
      {
        lines: (lines, replace) => setBuf((b) => appendLines(b, lines, replace)),
        mode: (m, reason) => setMode({ mode: m, reason }),
      },
    );
  }, [http, id, token]);

  const view = useMemo(() => viewLines(buf, { stdout, stderr, search, paused }), [buf, stdout, stderr, search, paused]);
  useLayoutEffect(follow, [view.lines.length, view.lines[view.lines.length - 1]?.seq]);
  useLayoutEffect(() => {
    // Lines out of view are laid out only once scrolled to (content-visibility), at their real
    // height: a wrapped line grows the text after the jump to the bottom, so follow it again.
    const el = body.current;
    if (!el) return;
    const ro = new ResizeObserver(follow);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  return (
    <div className="logs">
      <div className="toolbar">
        <span className={`live-dot mode-${mode.mode}`} aria-live="polite">
          {MODE_TEXT[mode.mode]}
          {mode.reason ? `: ${mode.reason}` : ''}
        </span>
        <input type="search" placeholder="Search logs" aria-label="Search logs" value={search} onChange={(e) => setSearch(e.target.value)} />
        <label className="check">
          <input type="checkbox" checked={stdout} onChange={(e) => setStdout(e.target.checked)} /> stdout
        </label>
        <label className="check">
          <input type="checkbox" checked={stderr} onChange={(e) => setStderr(e.target.checked)} /> stderr
        </label>
        <button type="button" aria-pressed={paused !== null} onClick={() => setPaused((p) => (p === null ? buf : null))}>
          {paused === null ? 'Pause' : `Resume${view.held ? ` (${view.held} new)` : ''}`}
        </button>
        <button
          type="button"
          onClick={() => {
            setBuf(clearLines);
            setPaused((p) => p && clearLines(p));
          }}
        >
          Clear view
        </button>
      </div>
      <pre
        className="log-lines"
        ref={box}
        tabIndex={0}
        aria-label="Log lines"
        onScroll={(e) => {
          const el = e.currentTarget;
          // Text laid out below after the view followed it is not the user scrolling up.
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40 || (stick.current && el.scrollTop >= followedTo.current);
        }}
      >
        <div ref={body}>
          {view.lines.length === 0 && <span className="muted">{search ? 'No line matches.' : 'No output yet.'}</span>}
          {view.lines.map((l) => (
            <div key={l.seq} className={`log-line ${l.source}`}>
              {l.source === 'stderr' && <span className="stream">err </span>}
              {highlight(l.content, search).map((part, i) => (part.hit ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
            </div>
          ))}
        </div>
      </pre>
    </div>
  );
}
