/**
 * The Bearer string the user typed, kept for this tab's session only (sessionStorage: gone when
 * the tab closes, never shared with other tabs, never in localStorage or a cookie).
 */
const KEY = 'svc.bearer';

export function loadToken(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null; // storage disabled: the user is asked again after a reload
  }
}

export function saveToken(token: string | null): void {
  try {
    if (token) sessionStorage.setItem(KEY, token);
    else sessionStorage.removeItem(KEY);
  } catch {
    // storage disabled: the token lives in memory for this page only
  }
}
