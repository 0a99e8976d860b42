import type { SvcConfig } from '../conf/keys.js';
import type { DepartingPrograms } from '../state/departing.js';
import type { Clock } from '../reconciler/clock.js';
import type { BootContext } from '../state/boot.js';
import type { StackApplier } from '../stacks/apply.js';
import type { StackDirStatus } from '../stacks/status.js';
import type { GitSync } from '../stacks/git/sync.js';
import type { ProgramActions } from '../operations/actions.js';
import type { EventLog } from '../state/events/event-log.js';
import type { ObservedRegistry } from '../state/observed.js';
import type { ProgramStore } from '../state/store.js';
import type { SystemStats } from '../state/system-stats.js';
import type { DaemonMetrics } from './metrics/daemon-metrics.js';
import type { ErrorLogger } from './errors.js';
import type { PluginRuntime } from '../plugins/boot/runtime.js';
import type { LogSocket } from './ws/log-socket.js';
import type { NotifyService } from '../plugins/notify/service.js';
import type { ReactionsPort } from '../state/reactions-view.js';
import type { AuditRecorder } from '../plugins/security/audit/recorder.js';

/** What the HTTP views need; wired in bin/svcd.ts. */
export interface ApiDeps {
  config: SvcConfig;
  /** Time as a parameter (the daemon's clock): routes never read Date.now; streams set timers. */
  clock: Clock;
  /** The boot rules (autostart) that decide the run intent in force. */
  boot: BootContext;
  store: ProgramStore;
  observed: ObservedRegistry;
  /** Removed programs whose process is still stopping: listed (removed: true) until it has ended. */
  departing?: DepartingPrograms;
  actions: ProgramActions;
  /** The persistent event history (queries and stats). */
  events: Pick<EventLog, 'query' | 'stats' | 'report'>;
  log: ErrorLogger & { info(msg: string, fields?: Record<string, unknown>): void };
  version: string;
  /** Starts a graceful daemon shutdown (stops programs, records system_shutdown, exits 0); `cause` names who asked. */
  requestShutdown: (cause: string) => void;
  /** System stats snapshot provider (refreshed in the background); null before the first sample. */
  systemStats?: () => SystemStats | null;
  /** The same, sampled first when the snapshot is older than its interval (nothing samples while nobody reads). */
  freshSystemStats?: () => Promise<SystemStats | null>;
  /** The metrics registry and HTTP instrumentation; without it `/metrics` answers 404. */
  metrics?: DaemonMetrics;
  /** Stack apply (shared with the watched directory, so applies are serialized) and its status. */
  stacks?: { applier: StackApplier; status(): StackDirStatus };
  /** Git sources (docs/gitops.md): status, sync, diff and the drift guard; absent: none configured. */
  gitops?: GitSync;
  /** What start-up loaded (license, plugins, the security plugin); without it: core auth only. */
  plugins?: PluginRuntime;
  /** What the audit middleware writes, and when it refuses (required with the security plugin). */
  auditRecorder?: AuditRecorder;
  /** The notify plugin when notify.so is loaded; without it the notify routes answer 404. */
  notify?: NotifyService;
  /** The log stream served at `WS /ws`, behind the same auth middleware as HTTP. */
  logSocket?: Pick<LogSocket, 'route'>;
  /** Event reactions (controllers/reactions); without it the reaction routes answer 503. */
  reactions?: ReactionsPort;
}
