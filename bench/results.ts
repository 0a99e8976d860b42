import type { ManagerName, Metric } from './report.js';

/** Collects samples by (scenario, measure), keeping the order in which rows were first seen. */
export class Results {
  private readonly rows = new Map<string, Metric>();

  define(scenario: string, what: string, unit: Metric['unit'], target?: string): void {
    const key = `${scenario}\0${what}`;
    if (!this.rows.has(key)) this.rows.set(key, { scenario, what, unit, samples: {}, target });
  }

  add(scenario: string, what: string, who: ManagerName | 'floor', value: number): void {
    const row = this.rows.get(`${scenario}\0${what}`);
    if (!row) throw new TypeError(`results: define '${scenario} / ${what}' first`);
    if (who === 'floor') (row.floor ??= []).push(value);
    else (row.samples[who] ??= []).push(value);
  }

  metrics(): Metric[] {
    return [...this.rows.values()];
  }
}
