import type { EventType } from '../../state/events/types.js';
import type { OtaLast, OtaResult } from '../../state/ota.js';
import type { OtaDesired, OtaEffect, OtaInput, OtaObserved, OtaPlan, OtaProgramFacts } from './plan-types.js';
import type { OtaRecord } from './record.js';

/** Exits svc itself caused: not a failure of the new binary. */
export const PLANNED_EXITS: ReadonlySet<string> = new Set(['restart', 'stop', 'remove', 'shutdown']);

/** A live process that can be restarted or signalled (not one being stopped). */
export function isLive(o: OtaObserved): boolean {
  return o.pid !== null && (o.status === 'Running' || o.status === 'Healthy' || o.status === 'Unhealthy');
}

export function secs(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** One planning pass: the input, and the effects and wake-up it collects. */
export class PlanContext {
  readonly effects: OtaEffect[] = [];
  private requeueAt: number | undefined;

  constructor(readonly input: OtaInput) {}

  /** Only called once the artifact is known to exist. */
  get desired(): OtaDesired {
    return this.input.desired!;
  }

  get program(): OtaProgramFacts {
    return this.input.program!;
  }

  get observed(): OtaObserved {
    return this.input.observed;
  }

  get now(): number {
    return this.input.now;
  }

  event(event: EventType, msg: string): void {
    this.effects.push({ kind: 'event', event: { event, program_id: this.input.id, program_name: this.input.name, msg } });
  }

  /** At most one step per pass. */
  step(effect: Extract<OtaEffect, { kind: 'step' }>): void {
    if (!this.effects.some((e) => e.kind === 'step')) this.effects.push(effect);
  }

  cleanup(destination: string): void {
    if (!this.effects.some((e) => e.kind === 'cleanup' && e.destination === destination)) this.effects.push({ kind: 'cleanup', destination });
  }

  wakeAt(at: number): void {
    this.requeueAt = this.requeueAt === undefined ? at : Math.min(this.requeueAt, at);
  }

  last(result: OtaResult, reason: string, checksum: string | null): OtaLast {
    return { result, reason, at: this.now, checksum };
  }

  result(record: OtaRecord | null): OtaPlan {
    return { record, effects: this.effects, ...(this.requeueAt !== undefined ? { requeueAt: this.requeueAt } : {}) };
  }
}
