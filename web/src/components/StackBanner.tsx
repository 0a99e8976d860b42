import { stackBanner, type StackStatusBody } from '../../../stacks/stack-problems.js';
import { useServices } from '../app/context.js';
import { useLoad } from '../app/hooks.js';

/**
 * One line above every page when a watched stack file or a git source is refused (the last good
 * state keeps running); the details are on the System page. Polled: refusals are rare and cheap to read.
 */
export function StackBanner() {
  const { http } = useServices();
  const status = useLoad(() => http.get<StackStatusBody>('/api/v1/stack/status'), 'stack-banner', 5000);
  const text = status.data ? stackBanner(status.data) : null;
  if (!text) return null;
  return (
    <p className="stack-banner" role="alert">
      {text.replace(/; see svc stack status$/, '')} · <a href="#/system">details</a>
    </p>
  );
}
