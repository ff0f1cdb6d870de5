/**
 * Where each Playwright worker's servers listen: worker n has the main server on E2E_PORT + 2n and
 * the short-lived-token server on the port after it. The graceful-stop journey starts its own
 * server at E2E_PORT + 7, above those of up to three workers.
 */
export const e2ePort = Number(process.env.E2E_PORT ?? 8181);

/** Two workers on two cores: a journey mostly waits on the browser or the server, one at a time. */
export const e2eWorkers = Number(process.env.E2E_WORKERS ?? 2);

export function serverPorts(worker: number): { main: number; shortLived: number } {
  return { main: e2ePort + 2 * worker, shortLived: e2ePort + 2 * worker + 1 };
}
