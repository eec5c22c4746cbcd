// One error catalogue with stable codes (CONVENTIONS 6). The HTTP layer renders these as the
// /api envelope or as each vendor's native error body; the status comes from here.

export const ERRORS = {
  validation: { status: 400, message: 'The request is not valid' },
  malformed_json: { status: 400, message: 'The request body is not valid JSON' },
  unauthenticated: { status: 401, message: 'Authentication required' },
  invalid_credentials: { status: 401, message: 'Invalid email or password' },
  invalid_token: { status: 401, message: 'The token is invalid or expired' },
  session_revoked: { status: 401, message: 'The session has ended' },
  invalid_link: { status: 400, message: 'The link is invalid, expired or already used; ask for a new one' },
  // Device authorisation (RFC 8628 §3.5): the device polls with these until it gets its tokens.
  authorization_pending: { status: 400, message: 'The code has not been approved yet: keep polling at the given interval' },
  slow_down: { status: 400, message: 'Polling too fast: wait 5 seconds longer between polls from now on' },
  expired_token: { status: 400, message: 'The device code has expired (codes last 15 minutes): start the sign-in again' },
  access_denied: { status: 400, message: 'The sign-in was denied on the approval page: start again if that was a mistake' },
  invalid_grant: { status: 400, message: 'The device code is unknown or was already used: start the sign-in again' },
  invalid_user_code: { status: 400, message: 'That code is wrong, expired or already used: check the code shown on the device, or start its sign-in again' },
  invalid_api_key: { status: 401, message: 'The API key is invalid, expired or revoked' },
  insufficient_balance: { status: 402, message: 'The wallet balance cannot cover this call' },
  budget_exceeded: { status: 402, message: "The project's monthly budget cannot cover this call" },
  forbidden: { status: 403, message: 'You do not have access to this resource' },
  cross_site: { status: 403, message: 'Cross-site request refused: send it from the Switchboard app itself, or authenticate with an Authorization header' },
  not_acceptable: { status: 406, message: 'This endpoint answers text/event-stream only' },
  not_found: { status: 404, message: 'Not found' },
  conflict: { status: 409, message: 'The request conflicts with the current state' },
  email_taken: { status: 409, message: 'An account with this email already exists' },
  limit_reached: { status: 409, message: 'A limit on this resource has been reached' },
  request_timeout: { status: 408, message: 'The request was not received in time: send it again' },
  body_too_large: { status: 413, message: 'The request body is too large' },
  unsupported_media_type: { status: 415, message: 'Content-Type must be application/json' },
  rate_limited: { status: 429, message: 'Rate limit exceeded' },
  headers_too_large: { status: 431, message: 'The request headers are too large (16 KB at most): send fewer or shorter headers' },
  internal: { status: 500, message: 'Internal error' },
  upstream_failed: { status: 502, message: 'The upstream provider failed' },
  mail_failed: { status: 502, message: 'The e-mail could not be sent; try again in a moment' },
  payment_processor_failed: { status: 502, message: 'The payment processor could not be reached' },
  upstream_unconfigured: { status: 503, message: 'No upstream provider is configured for this call' },
  // D17: a replica past its in-flight limit sheds at once; a draining one refuses new calls; a
  // database that cannot be reached fails the call. All three: retry shortly (Retry-After).
  overloaded: { status: 503, message: 'The server is overloaded: retry shortly' },
  unavailable: { status: 503, message: 'The service is temporarily unavailable: retry shortly' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra response headers (Retry-After and friends). */
  readonly headers?: Record<string, string>;
  readonly field?: string;

  constructor(code: ErrorCode, message?: string, opts: { headers?: Record<string, string>; field?: string } = {}) {
    super(message ?? ERRORS[code].message);
    this.code = code;
    this.status = ERRORS[code].status;
    this.headers = opts.headers;
    this.field = opts.field;
  }
}

export const appError = (code: ErrorCode, message?: string, opts?: { headers?: Record<string, string>; field?: string }) =>
  new AppError(code, message, opts);
