import type { ApiSteps } from './api-steps.ts';

/**
 * Deterministic answers of the sandbox API steps, decided by the last digit of the ApplicationID so
 * a person can pick an application to see each outcome (README "Outbox and sandboxes"):
 * 0–6 success, 7 refused as a duplicate customer, 8 refused for a missing account number, 9 the
 * step's own time-out answer. An API name the sandbox does not know is answered as not configured.
 */
export const sandboxOutcomes = {
  success: (reference: string) => ({ ErrorNo: 0, Message: `Sent to core banking. Customer reference ${reference}.` }),
  duplicate: { ErrorNo: 1001, Message: 'Core banking refused the application: the customer already exists.' },
  missingAccount: { ErrorNo: 1002, Message: 'Core banking refused the application: the account number is missing.' },
  timeout: { ErrorNo: 1504, Message: 'Core banking did not answer in time. Please try again later.' },
  unknownStep: (apiName: string) => ({ ErrorNo: 404, Message: `The API step ${apiName} is not configured for this tenant.` }),
} as const;

export const sandboxApiSteps: ApiSteps = {
  async run({ apiName, application }) {
    if (apiName !== 'CoreBanking') return sandboxOutcomes.unknownStep(apiName);
    const digit = application.ApplicationID % 10;
    if (digit === 7) return sandboxOutcomes.duplicate;
    if (digit === 8) return sandboxOutcomes.missingAccount;
    if (digit === 9) return sandboxOutcomes.timeout;
    return sandboxOutcomes.success(`CB-${application.InstanceName.toUpperCase()}-${application.ApplicationID}`);
  },
};
