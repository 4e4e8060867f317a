// The account routes validate with `attachValidation`, so a schema violation reaches the handler,
// which can put it in the words the sign-up and password forms show (see fieldProblem).
import { badRequest, fieldProblemOf } from '@tuber/kit';
import type { FastifyRequest } from 'fastify';
import { fieldProblem, type FieldError } from '../domain/signup.js';

/** Throws the request's validation error, if any, with a readable message where one is known. */
export function rejectInvalidBody(request: FastifyRequest): void {
  const error = request.validationError as (Error & { validation?: FieldError[] }) | undefined;
  if (!error) return;
  const first = error.validation?.[0];
  const problem = first ? fieldProblem(first) : undefined;
  // Anything else goes to the shared error handler unchanged ('body: "phone" is required.').
  throw problem ? badRequest({ ...problem, errors: [{ ...fieldProblemOf(first!), code: problem.code, detail: problem.message }] }) : error;
}
