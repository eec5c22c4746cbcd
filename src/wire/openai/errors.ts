// The chat-completions wire's native error body `{error:{message,type,param,code}}`. The SDK picks
// its error class from the HTTP status (400 BadRequestError, 401 AuthenticationError, 429
// RateLimitError, 5xx InternalServerError…); `type` mirrors the status for clients that read it.
export function errorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 402) return 'insufficient_quota';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 409) return 'conflict_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

export function errorBody(status: number, code: string, message: string, field?: string): Record<string, unknown> {
  return { error: { message, type: errorType(status), param: field ?? null, code } };
}
