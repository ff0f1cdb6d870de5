import { expect } from 'vitest';
import { fromPromise } from 'xstate';
import { verificationListMachine } from '../../src/machines/verification-list.machine.ts';
import type { VerificationService } from '../../src/schemas/verifications.schema.ts';
import type { VerificationList } from '../../src/services/verifications.service.ts';
import { defineMachineModel } from './machine-model.ts';

const row = (id: number) => ({ id: `V${id}`, full_name: 'Ava Lee', date: '2026-01-01T00:00:00.000Z', requester_name: 'Avery Admin', type: 'IndividualVerification', status: 'Complete', report_link: '/r', ref_code: '' });
/** Three pages' worth: next is possible from page 1, previous from page 2. */
const page: VerificationList = { service: 'Individual', list: { responses: Array.from({ length: 10 }, (_, index) => row(index + 1)), totalCount: 25 } };

/** SUV §9, written here rather than read from the schema: 10 rows a page. */
const pageSize = 10;
const lastPage = (total: number) => Math.max(1, Math.ceil(total / pageSize));

export default defineMachineModel({
  name: 'verification-list',
  machine: verificationListMachine.provide({
    actors: {
      loadList: fromPromise<VerificationList, { service: VerificationService; page: number; search: string }>(() => new Promise(() => {})),
      saveRefCode: fromPromise<unknown, { service: VerificationService; id: string; refCode: string }>(() => new Promise(() => {})),
      downloadReport: fromPromise<void, { reportLink: string; service: VerificationService }>(() => new Promise(() => {})),
    },
    actions: { prefetchWizardForm: () => {} },
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
    { type: 'wizard.prefetch' },
    { type: 'address.change', address: { service: 'Individual', page: 5, search: ' smith ' } },
  ],
  expectations: {
    states: {
      loading: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(true);
        expect(snapshot.context.services).toContain(snapshot.context.service);
      },
      // SUV §2: 10 rows a page at most, of the service shown, on a page that exists.
      ready: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(false);
        expect(snapshot.context.refTarget).toBeUndefined();
        expect(snapshot.context.companyRows.length + snapshot.context.individualRows.length).toBeLessThanOrEqual(pageSize);
        expect(snapshot.context.page).toBeGreaterThanOrEqual(1);
        expect(snapshot.context.page).toBeLessThanOrEqual(lastPage(snapshot.context.total));
      },
      editingRefCode: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(false);
        expect(snapshot.context.refTarget).toEqual({ id: 'V3', service: snapshot.context.service });
      },
      savingRefCode: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(true);
        expect(snapshot.context.refTarget).toBeDefined();
      },
    },
    transitions: {
      // SUV §2: only a service the claims permit; changing it goes back to page 1, the keyword kept.
      '(machine) + service.select': ({ event, before, after, started }) => {
        if (before.context.services.includes(event.service as VerificationService)) {
          expect(after.context.service).toBe(event.service);
          expect(after.context.page).toBe(1);
          expect(started).toEqual({ loadList: { service: event.service, page: 1, search: before.context.search } });
        } else {
          expect(after.context.service).toBe(before.context.service);
          expect(started).toEqual({});
        }
      },
      // The keyword without its surrounding spaces, from page 1.
      '(machine) + search.submit': ({ before, after, started }) => {
        expect(after.context.search).toBe('ref-7');
        expect(started).toEqual({ loadList: { service: before.context.service, page: 1, search: 'ref-7' } });
        expect(after.matches('loading')).toBe(true);
      },
      // The same page and keyword again.
      '(machine) + list.refresh': ({ before, started }) =>
        expect(started).toEqual({ loadList: { service: before.context.service, page: before.context.page, search: before.context.search } }),
      // Issue 39 point 10: the address's tab (when permitted), page and keyword, loaded.
      '(machine) + address.change': ({ after, started }) => {
        expect(after.context).toMatchObject({ service: 'Individual', page: 5, search: 'smith' });
        expect(started).toEqual({ loadList: { service: 'Individual', page: 5, search: 'smith' } });
      },
      // A side load for the wizard: the list, its state and its requests are left as they were.
      '(machine) + wizard.prefetch': ({ before, after, started }) => {
        expect(after.value).toEqual(before.value);
        expect(after.context).toEqual(before.context);
        expect(started).toEqual({});
      },
      'loading + xstate.done.actor.loadList': ({ before, after, started }) => {
        // Past the last of 25 rows' 3 pages (an old address): the last page is loaded instead.
        if (before.context.page > 3) {
          expect(after.context.page).toBe(3);
          expect(started).toEqual({ loadList: { service: before.context.service, page: 3, search: before.context.search } });
          return;
        }
        expect(after.matches('ready')).toBe(true);
        expect(after.context.total).toBe(25);
        expect(after.context.individualRows).toEqual(page.list.responses);
        expect(after.context.companyRows).toEqual([]);
      },
      // SUV §8: a failed load is swallowed and the rows shown stay as they were.
      'loading + xstate.error.actor.loadList': ({ before, after }) => {
        expect(after.matches('ready')).toBe(true);
        expect(after.context.individualRows).toBe(before.context.individualRows);
        expect(after.context.companyRows).toBe(before.context.companyRows);
        expect(after.context.total).toBe(before.context.total);
        expect(after.context.page).toBe(Math.min(before.context.page, lastPage(before.context.total)));
      },
      'ready + page.next': ({ before, after, started }) => {
        if (before.context.page < lastPage(before.context.total)) {
          expect(started).toEqual({ loadList: { service: before.context.service, page: before.context.page + 1, search: before.context.search } });
        } else {
          expect(after.matches('ready')).toBe(true);
          expect(started).toEqual({});
        }
      },
      'ready + page.previous': ({ before, after, started }) => {
        if (before.context.page > 1) {
          expect(started).toEqual({ loadList: { service: before.context.service, page: before.context.page - 1, search: before.context.search } });
        } else {
          expect(after.matches('ready')).toBe(true);
          expect(started).toEqual({});
        }
      },
      // The row's own link through the service shown; the list stays usable meanwhile.
      'ready + report.download': ({ before, after, started }) => {
        expect(started).toEqual({ download: { reportLink: '/r', service: before.context.service } });
        expect(after.matches('ready')).toBe(true);
      },
      'ready + refCode.open': ({ after }) => expect(after.context.refInput).toBe(''),
      'editingRefCode + refCode.change': ({ after }) => expect(after.context.refInput).toBe('REF-9'),
      // SUV §7: POST …/ref-code for the row opened, with what was typed.
      'editingRefCode + refCode.confirm': ({ before, started }) =>
        expect(started).toEqual({ saveRefCode: { service: before.context.service, id: 'V3', refCode: before.context.refInput } }),
      'editingRefCode + refCode.cancel': ({ after, started }) => {
        expect(after.context.refInput).toBe('');
        expect(started).toEqual({});
      },
      // The list reloads whatever the answer, on the same page.
      'savingRefCode + xstate.done.actor.saveRefCode': ({ before, after, started }) => {
        expect(after.context.refTarget).toBeUndefined();
        expect(started).toEqual({ loadList: { service: before.context.service, page: before.context.page, search: before.context.search } });
      },
      // Issue 39 point 11: a refusal is said, in the modal still open with what was typed; nothing reloads.
      'savingRefCode + xstate.error.actor.saveRefCode': ({ before, after, started }) => {
        expect(after.matches('editingRefCode')).toBe(true);
        expect(after.context.refTarget).toEqual(before.context.refTarget);
        expect(after.context.refInput).toBe(before.context.refInput);
        expect(after.context.refError).toBe('The reference code could not be saved. Please try again.');
        expect(started).toEqual({});
      },
    },
  },
});
