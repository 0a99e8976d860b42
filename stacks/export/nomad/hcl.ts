import type { NomadCheck, NomadJob, NomadService, NomadTask, NomadTaskGroup } from './model.js';

/** An HCL string: escapes, and `${`/`%{` doubled so Nomad does not read them as templates. */
export function hclString(text: string): string {
  const escaped = text
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t')
    .replace(/\$\{/g, '$$$${')
    .replace(/%\{/g, '%%{');
  return `"${escaped}"`;
}

/** A JSON duration (nanoseconds) as an HCL duration string: `10s`, `1500ms`. */
export function hclDuration(nanoseconds: number): string {
  if (nanoseconds % 1e9 === 0) return `"${nanoseconds / 1e9}s"`;
  if (nanoseconds % 1e6 === 0) return `"${nanoseconds / 1e6}ms"`;
  return `"${nanoseconds}ns"`;
}

type Value = string | number | boolean | string[];

class Writer {
  private readonly lines: string[] = [];
  private depth = 0;

  attr(key: string, value: Value | undefined, raw = false): void {
    if (value === undefined) return;
    const text = raw ? String(value) : Array.isArray(value) ? `[${value.map(hclString).join(', ')}]` : typeof value === 'string' ? hclString(value) : String(value);
    this.lines.push(`${'  '.repeat(this.depth)}${key} = ${text}`);
  }

  /** A map: a block when every key is an identifier, else the attribute form with quoted keys. */
  map(key: string, map: Record<string, string> | undefined): void {
    if (!map || Object.keys(map).length === 0) return;
    const identifiers = Object.keys(map).every((k) => /^[A-Za-z_][A-Za-z0-9_-]*$/.test(k));
    if (identifiers) return this.block(key, [], () => Object.entries(map).forEach(([k, v]) => this.attr(k, v)));
    this.lines.push(`${'  '.repeat(this.depth)}${key} = {`);
    for (const [k, v] of Object.entries(map)) this.lines.push(`${'  '.repeat(this.depth + 1)}${hclString(k)} = ${hclString(v)}`);
    this.lines.push(`${'  '.repeat(this.depth)}}`);
  }

  block(type: string, labels: string[], body: () => void): void {
    this.lines.push(`${'  '.repeat(this.depth)}${[type, ...labels.map(hclString)].join(' ')} {`);
    this.depth++;
    body();
    this.depth--;
    this.lines.push(`${'  '.repeat(this.depth)}}`);
  }

  blank(): void {
    this.lines.push('');
  }

  text(): string {
    return `${this.lines.join('\n')}\n`;
  }
}

/** The HCL job specification for a job, field for field the same as its JSON form. */
export function renderJobHcl(job: NomadJob, header: string[]): string {
  const w = new Writer();
  const out = header.map((h) => `# ${h}`);
  w.block('job', [job.ID], () => {
    w.attr('type', job.Type);
    w.attr('datacenters', job.Datacenters);
    w.map('meta', job.Meta);
    if (job.Periodic) {
      const p = job.Periodic;
      w.block('periodic', [], () => {
        w.attr('crons', p.Specs);
        w.attr('prohibit_overlap', p.ProhibitOverlap);
        w.attr('time_zone', p.TimeZone);
        w.attr('enabled', p.Enabled);
      });
    }
    for (const group of job.TaskGroups) {
      w.blank();
      renderGroup(w, group);
    }
  });
  return `${out.join('\n')}${out.length > 0 ? '\n' : ''}${w.text()}`;
}

function renderGroup(w: Writer, g: NomadTaskGroup): void {
  w.block('group', [g.Name], () => {
    w.attr('count', g.Count);
    w.map('meta', g.Meta);
    const r = g.RestartPolicy;
    w.block('restart', [], () => {
      w.attr('attempts', r.Attempts);
      w.attr('interval', hclDuration(r.Interval), true);
      w.attr('delay', hclDuration(r.Delay), true);
      w.attr('mode', r.Mode);
    });
    if (g.ReschedulePolicy) {
      const rs = g.ReschedulePolicy;
      w.block('reschedule', [], () => {
        w.attr('attempts', rs.Attempts);
        w.attr('unlimited', rs.Unlimited);
      });
    }
    for (const network of g.Networks ?? []) {
      w.block('network', [], () => {
        for (const port of network.ReservedPorts) w.block('port', [port.Label], () => w.attr('static', port.Value));
      });
    }
    for (const task of g.Tasks) renderTask(w, task);
  });
}

function renderTask(w: Writer, t: NomadTask): void {
  w.block('task', [t.Name], () => {
    w.attr('driver', t.Driver);
    w.attr('user', t.User);
    if (t.Lifecycle) {
      const l = t.Lifecycle;
      w.block('lifecycle', [], () => {
        w.attr('hook', l.Hook);
        w.attr('sidecar', l.Sidecar);
      });
    }
    w.block('config', [], () => {
      w.attr('command', t.Config.command);
      w.attr('args', t.Config.args);
    });
    w.map('env', t.Env);
    if (t.KillTimeout !== undefined) w.attr('kill_timeout', hclDuration(t.KillTimeout), true);
    w.attr('kill_signal', t.KillSignal);
    if (t.Resources) {
      const r = t.Resources;
      w.block('resources', [], () => {
        w.attr('cpu', r.CPU);
        w.attr('cores', r.Cores);
        w.attr('memory', r.MemoryMB);
      });
    }
    for (const service of t.Services ?? []) renderService(w, service);
  });
}

function renderService(w: Writer, s: NomadService): void {
  w.block('service', [], () => {
    w.attr('name', s.Name);
    w.attr('provider', s.Provider);
    w.attr('port', s.PortLabel);
    w.attr('address', s.Address);
    for (const check of s.Checks) renderCheck(w, check);
  });
}

function renderCheck(w: Writer, c: NomadCheck): void {
  w.block('check', [], () => {
    w.attr('name', c.Name);
    w.attr('type', c.Type);
    w.attr('command', c.Command);
    w.attr('args', c.Args);
    w.attr('path', c.Path);
    w.attr('protocol', c.Protocol);
    w.attr('port', c.PortLabel);
    w.attr('interval', hclDuration(c.Interval), true);
    w.attr('timeout', hclDuration(c.Timeout), true);
    w.attr('success_before_passing', c.SuccessBeforePassing);
    w.attr('failures_before_critical', c.FailuresBeforeCritical);
    if (c.CheckRestart) {
      const cr = c.CheckRestart;
      w.block('check_restart', [], () => {
        w.attr('limit', cr.Limit);
        w.attr('grace', hclDuration(cr.Grace), true);
        w.attr('ignore_warnings', cr.IgnoreWarnings);
      });
    }
  });
}
