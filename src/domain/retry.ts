/**
 * Whether a failure may pass if the same request is sent again (issue 32: Try again is offered
 * only then). A refusal is final: a 4xx, or an API step's ErrorNo in a refusal range (1001 a
 * duplicate customer, 1002 a missing account number). An API step numbers its errors as HTTP
 * does, in the thousands: ErrorNo 1500–1599 (1504 "did not answer in time") are its service's
 * transient failures, like a 5xx.
 */
export function isTransientStepError(errorNo: number): boolean {
  return errorNo > 0 && errorNo % 1000 >= 500 && errorNo % 1000 < 600;
}

/** An HTTP status that may pass on retry: no status (no answer) or a server error. */
export function isTransientStatus(status: number | undefined): boolean {
  return status === undefined || status >= 500;
}
