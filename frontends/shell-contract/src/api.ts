// The API client a remote gets from the shell (ShellContract.api) and the one error every failure becomes:
// the services' error shape { statusCode, error, message }. The client itself is @tuber/ui's createApiClient;
// ApiError lives here so that `instanceof ApiError` holds whichever front end made the client.

export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
}

/** One field's problem in an error answer (`errors` of problem details). */
export interface ApiFieldProblem {
  field: string;
  code: string;
  detail?: string;
  params?: Record<string, string | number>;
}

/**
 * What problem details (RFC 9457, contracts/src/problems.ts) add to an error: its stable code, the values its
 * words use, field by field problems. Since 1.1; a shell of 1.0 makes errors without them, so a remote reads
 * them as optional and falls back on `statusCode`.
 */
export interface ApiProblem {
  code?: string;
  params?: Record<string, string | number>;
  errors?: ApiFieldProblem[];
}

export class ApiError extends Error implements ApiErrorBody, ApiProblem {
  override readonly name = 'ApiError';
  readonly code?: string;
  readonly params?: Record<string, string | number>;
  readonly errors?: ApiFieldProblem[];
  constructor(
    readonly statusCode: number,
    readonly error: string,
    message: string,
    problem: ApiProblem = {},
  ) {
    super(message);
    if (problem.code !== undefined) this.code = problem.code;
    if (problem.params !== undefined) this.params = problem.params;
    if (problem.errors !== undefined) this.errors = problem.errors;
  }
}

export interface ApiClient {
  get<T>(path: string, init?: RequestInit): Promise<T>;
  post<T>(path: string, body?: unknown, init?: RequestInit): Promise<T>;
  put<T>(path: string, body?: unknown, init?: RequestInit): Promise<T>;
  patch<T>(path: string, body?: unknown, init?: RequestInit): Promise<T>;
  delete<T>(path: string, init?: RequestInit): Promise<T>;
}
