/** What a 400 VALIDATION says of its field: the kind of problem (the server's FIELD_REASONS) and its bound. */
export interface FieldProblem {
  reason: string;
  limits?: { min?: number; max?: number };
}

/** A non-2xx answer of the API: `{ statusCode, code, message, field?, reason?, limits? }`. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field?: string;
  readonly problem?: FieldProblem;

  constructor(status: number, code: string, message: string, field?: string, problem?: FieldProblem) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.field = field;
    this.problem = problem;
  }

  /** Network failure or timeout (no answer from the server). */
  get isNetwork(): boolean {
    return this.status === 0;
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}
