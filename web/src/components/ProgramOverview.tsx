import type { ReactNode } from 'react';
import type { ProgramDetail } from '../api/types.js';
import { useServices } from '../app/context.js';
import { bytes, dateTime, duration, percent, relative } from '../logic/format.js';
import { Chart } from './Chart.js';
import { otaSummary } from '../../../tui/client/ota-format.js';
import { noNextFiring } from '../../../state/cron-next.js';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** State, last exit, health, schedule, and CPU/memory charts of one program. */
export function ProgramOverview({ detail, now }: { detail: ProgramDetail; now: number }) {
  const { history } = useServices();
  const s = detail.state;
  const points = history.get(detail.id);
  const from = now - history.keepMs;
  const exit = s.last_exit;
  const health = s.health;
  const cron = s.cron;
  return (
    <div className="overview">
      <dl className="facts">
        <Fact label="Status">{s.status}{s.detail ? ` (${s.detail})` : ''}</Fact>
        <Fact label="Wanted">{s.desired ?? '-'}</Fact>
        <Fact label="PID">{s.pid ?? '-'}</Fact>
        <Fact label="Uptime">{duration(s.uptime_secs)}</Fact>
        <Fact label="CPU">{percent(s.cpu_usage)}</Fact>
        <Fact label="Memory">{bytes(s.mem_usage)}</Fact>
        <Fact label="Restarts">{s.restarts} (retries {s.retries}{s.next_retry_at ? `, next ${relative(s.next_retry_at, now)}` : ''})</Fact>
        <Fact label="Source">{detail.config.source ?? '-'}</Fact>
        <Fact label="Last exit">
          {exit ? `${exit.reason}: ${exit.exit_code !== null ? `code ${exit.exit_code}` : exit.signal !== null ? `signal ${exit.signal}` : '-'} at ${dateTime(exit.at)} after ${duration(exit.duration_ms / 1000)}${exit.msg ? ` · ${exit.msg}` : ''}` : '-'}
        </Fact>
        <Fact label="Health">
          {health ? `${health.healthy === null ? 'pending' : health.healthy ? 'passing' : `failing (${health.failures} in a row)`}${health.last ? ` · ${health.last.message} (${health.last.latency_ms} ms)` : ''}` : 'no check'}
        </Fact>
        {s.isolation && (
          <Fact label="Limits">
            {s.isolation.status}
            {s.isolation.oom_kills > 0 ? ` · ${s.isolation.oom_kills} OOM kill(s)` : ''}
          </Fact>
        )}
        {s.ota && (
          <Fact label="Update (OTA)">
            {otaSummary(s.ota)}
            {s.ota.last ? ` · last: ${s.ota.last.result} at ${dateTime(s.ota.last.at)}: ${s.ota.last.reason}` : ''}
          </Fact>
        )}
        {cron && (
          <Fact label="Schedule">
            {String(detail.config.cron ?? '')} · next {cron.next_fire_at ? `${dateTime(cron.next_fire_at)} (${relative(cron.next_fire_at, now)})` : noNextFiring(s.status)} · running {cron.running}, queued {cron.queued}
            {cron.last_run ? ` · last run ${cron.last_run.reason} in ${cron.last_run.duration_secs}s` : ''}
          </Fact>
        )}
      </dl>
      <div className="charts">
        <Chart title="CPU" points={points.map((p) => ({ at: p.at, value: p.cpu }))} from={from} to={now} floor={5} format={percent} />
        <Chart title="Memory" points={points.map((p) => ({ at: p.at, value: p.mem }))} from={from} to={now} floor={1024 * 1024} format={bytes} />
      </div>
      <p className="muted small">Charts cover the last {Math.round(history.keepMs / 60_000)} minutes while the dashboard is open (a sample at each update from svcd, at least every 3 s).</p>
    </div>
  );
}
