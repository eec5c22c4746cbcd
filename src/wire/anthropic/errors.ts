// The Messages wire's native error body `{type:'error', error:{type, message}}`. The SDK picks its
// error class from the status (401 AuthenticationError, 402 PaymentRequiredError, 429
// RateLimitError, 529 OverloadedError…); `error.type` is what the vendor sends for that status.
export function errorType(status: number): string {
  switch (status) {
    case 401:
      return 'authentication_error';
    case 402:
      return 'billing_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 409:
      return 'conflict_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 503:
    case 529:
      return 'overloaded_error';
    case 504:
      return 'timeout_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

/** `code` has no slot on this wire; the type carries the category and the message the detail. */
export function errorBody(status: number, _code: string, message: string): Record<string, unknown> {
  return { type: 'error', error: { type: errorType(status), message } };
}
