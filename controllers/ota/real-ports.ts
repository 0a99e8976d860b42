import type { Clock } from '../../reconciler/clock.js';
import type { OsPort } from '../os/port.js';
import { UndiciDownloader } from './downloader.js';
import { archiveExtractor } from './extract.js';
import { nodeOtaFs } from './node-fs.js';
import type { OtaPorts } from './ports.js';

/** The production ports; `ca` is the PEM text of `[ota] ca_file` (or null). */
export function realOtaPorts(opts: { clock: Clock; os: Pick<OsPort, 'signal'>; ca: string | null }): OtaPorts {
  const downloader = new UndiciDownloader(opts.clock, opts.ca);
  return {
    fs: nodeOtaFs,
    downloader,
    extractor: archiveExtractor,
    signal: (pid, signal) => opts.os.signal(pid, signal, true),
    close: () => downloader.close(),
  };
}
