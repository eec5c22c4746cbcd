// The generate-content wire's native error body `{error:{code, message, status, details}}`, a
// google.rpc.Status. The SDK raises ApiError carrying the HTTP status; `status` is the canonical
// RPC code name for that HTTP status, and an ErrorInfo detail carries the gateway's own code.
export function rpcStatus(status: number): string {
  switch (status) {
    case 400:
    case 413:
      return 'INVALID_ARGUMENT';
    case 401:
      return 'UNAUTHENTICATED';
    case 402:
      return 'FAILED_PRECONDITION';
    case 403:
      return 'PERMISSION_DENIED';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'ABORTED';
    case 429:
      return 'RESOURCE_EXHAUSTED';
    case 499:
      return 'CANCELLED';
    case 501:
      return 'UNIMPLEMENTED';
    case 502:
    case 503:
      return 'UNAVAILABLE';
    case 504:
      return 'DEADLINE_EXCEEDED';
    default:
      return status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT';
  }
}

export function errorBody(status: number, code: string, message: string, field?: string): Record<string, unknown> {
  return {
    error: {
      code: status,
      message,
      status: rpcStatus(status),
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: code.toUpperCase(),
          domain: 'switchboard',
          ...(field !== undefined ? { metadata: { field } } : {}),
        },
      ],
    },
  };
}
