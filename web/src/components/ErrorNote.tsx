import { errorText } from '../api/http.js';

/** The daemon's message, shown where the user acted (role=alert: read out when it appears). */
export function ErrorNote({ error, id }: { error: unknown; id?: string }) {
  if (!error) return null;
  return (
    <p className="error-note" role="alert" id={id}>
      {errorText(error)}
    </p>
  );
}
