import { fromPromise } from 'xstate';
import { verificationListMachine } from '../../src/machines/verification-list.machine.ts';
import type { VerificationService } from '../../src/schemas/verifications.schema.ts';
import type { VerificationList } from '../../src/services/verifications.service.ts';
import { defineMachineModel } from './machine-model.ts';

const row = (id: number) => ({ id: `V${id}`, full_name: 'Ava Lee', date: '2026-01-01T00:00:00.000Z', requester_name: 'Avery Admin', type: 'IndividualVerification', status: 'Complete', report_link: '/r', ref_code: '' });
/** Three pages' worth: next is possible from page 1, previous from page 2. */
const page: VerificationList = { service: 'Individual', list: { responses: Array.from({ length: 10 }, (_, index) => row(index + 1)), totalCount: 25 } };

export default defineMachineModel({
  name: 'verification-list',
  machine: verificationListMachine.provide({
    actors: {
      loadList: fromPromise<VerificationList, { service: VerificationService; page: number; search: string }>(() => new Promise(() => {})),
      saveRefCode: fromPromise<unknown, { service: VerificationService; id: string; refCode: string }>(() => new Promise(() => {})),
      downloadReport: fromPromise<void, { reportLink: string; service: VerificationService }>(() => new Promise(() => {})),
    },
  }),
  input: { services: ['Individual'] },
  preconditions: 'A user with the individual claim only opens /verifications',
  variants: [{ name: 'Company and Individual', input: { services: ['Company', 'Individual'] }, events: ['service.select'] }],
  contextKey: (snapshot) => ({ page: snapshot.context.page, total: snapshot.context.total, service: snapshot.context.service }),
  events: [
    { type: 'xstate.done.actor.loadList', output: page },
    { type: 'xstate.error.actor.loadList', error: new Error('500') },
    { type: 'service.select', service: 'Company' },
    { type: 'search.submit', value: 'ref-7' },
    { type: 'report.download', reportLink: '/r' },
    { type: 'refCode.open', id: 'V3', current: '' },
    { type: 'refCode.change', value: 'REF-9' },
    { type: 'xstate.done.actor.saveRefCode', output: { ref_code: 'REF-9' } },
    { type: 'xstate.error.actor.saveRefCode', error: new Error('500') },
  ],
});
