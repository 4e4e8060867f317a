// The API client a remote gets from the shell (ShellContract.api) and the one error every failure becomes:
// the services' error shape { statusCode, error, message }. The client itself is @tuber/ui's createApiClient;
// ApiError lives here so that `instanceof ApiError` holds whichever front end made the client.

export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
}

export class ApiError extends Error implements ApiErrorBody {
  override readonly name = 'ApiError';
  constructor(
    readonly statusCode: number,
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ApiClient {
  get<T>(path: string, init?: RequestInit): Promise<T>;
  post<T>(path: string, body?: unknown, init?: RequestInit): Promise<T>;
  put<T>(path: string, body?: unknown, init?: RequestInit): Promise<T>;
  patch<T>(path: string, body?: unknown, init?: RequestInit): Promise<T>;
  delete<T>(path: string, init?: RequestInit): Promise<T>;
}
