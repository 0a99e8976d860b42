import { useEffect, useRef, useState } from 'react';
import type { DashboardClient } from '../client.js';
import type { LogLine } from '../../../api/wire.js';
import type { LogMode } from '../../client/log-follow.js';

const KEEP = 1000;

/**
 * Characters of a line kept for the pane, far more than any terminal row shows. A program
 * writing lines of 200 kB ten times a second had every drawn row measured and cut whole on each
 * frame: svc ui used a core, showed '(connecting)' for good and no longer answered q or kill.
 */
export const LINE_KEEP = 4096;

/** A line as the pane can show it: after its last carriage return (what a terminal shows), cut to LINE_KEEP. */
export function keptLine(line: LogLine): LogLine {
  if (line.content.length <= LINE_KEEP) return line;
  const text = line.content.replace(/\r+$/, '');
  return { ...line, content: text.slice(text.lastIndexOf('\r') + 1).slice(0, LINE_KEEP) };
}

export interface LogView {
  lines: readonly LogLine[];
  mode: LogMode;
  error?: string;
  /** Lines that arrived while paused. */
  pending: number;
}

/**
 * One log subscription at a time, for the selected program. The switch waits `settleMs` so that
 * scrolling through the table does not open a socket per row. While paused, lines are kept and
 * counted, and shown on resume.
 */
export function useLogs(client: DashboardClient, id: string | null, paused: boolean, settleMs: number): LogView {
  const buffer = useRef<LogLine[]>([]);
  const [view, setView] = useState<LogView>({ lines: [], mode: 'connecting', pending: 0 });
  const pausedRef = useRef(paused);
  pausedRef.current = paused;

  useEffect(() => {
    buffer.current = [];
    setView({ lines: [], mode: 'connecting', pending: 0 });
    if (!id) return;
    let unsubscribe: (() => void) | undefined;
    const timer = setTimeout(() => {
      unsubscribe = client.subscribeLogs(id, {
        lines(received, replace) {
          const lines = received.map(keptLine);
          buffer.current = (replace ? lines : [...buffer.current, ...lines]).slice(-KEEP);
          if (pausedRef.current) return setView((v) => ({ ...v, pending: v.pending + lines.length }));
          setView((v) => ({ ...v, lines: buffer.current, pending: 0 }));
        },
        mode(mode, error) {
          setView((v) => ({ ...v, mode, error }));
        },
      });
    }, settleMs);
    return () => {
      clearTimeout(timer);
      unsubscribe?.();
    };
  }, [client, id, settleMs]);

  useEffect(() => {
    if (!paused) setView((v) => ({ ...v, lines: buffer.current, pending: 0 }));
  }, [paused]);
  return view;
}
