/**
 * Reads a `text/event-stream` (the WHATWG Server-Sent Events format): feed it decoded text as it
 * arrives, get back the `data` of each complete event. Comments and the `event`, `id` and
 * `retry` fields are skipped: svc's streams put everything in `data`.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];

  push(chunk: string): string[] {
    this.buffer += chunk;
    const events: string[] = [];
    let start = 0;
    for (let nl = this.buffer.indexOf('\n', start); nl >= 0; nl = this.buffer.indexOf('\n', start)) {
      const line = this.buffer.slice(start, this.buffer[nl - 1] === '\r' && nl > start ? nl - 1 : nl);
      start = nl + 1;
      if (line === '') {
        if (this.data.length > 0) events.push(this.data.join('\n'));
        this.data = [];
      } else if (line.startsWith('data')) {
        const colon = line.indexOf(':');
        if (colon === 4) this.data.push(line.slice(line[5] === ' ' ? 6 : 5));
        else if (line === 'data') this.data.push('');
      }
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }
}
