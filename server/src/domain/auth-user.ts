/** The signed-in reseller a request acts for: what every layer, down to the scope queries, is given. */
export interface AuthUser {
  id: number;
  username: string;
  type: 'admin' | 'master' | 'reseller';
  credits: number;
  sessionId: number;
  /** read with the session, so the profile and the enrolment check need no statement of their own */
  twoFactorEnabled: boolean;
  /** right under the root admin; read with the session (callers built elsewhere leave it out) */
  topLevel?: boolean;
  /** set when the request came through an API key (its session id is then 0) */
  apiKey?: { id: number; name: string; scopes: readonly string[] };
}
