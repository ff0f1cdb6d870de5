import { fromPromise } from 'xstate';
import { defaultListQuery } from '../../src/domain/application-query.ts';
import { hasFilterSelection } from '../../src/domain/list-filter-summary.ts';
import { applicationListMachine } from '../../src/machines/application-list.machine.ts';
import { cancelApplicationsMachine } from '../../src/machines/cancel-applications.machine.ts';
import { newApplicationOnBehalfMachine } from '../../src/machines/new-application-on-behalf.machine.ts';
import { newApplicationMachine } from '../../src/machines/new-application.machine.ts';
import { pingMachine } from '../../src/machines/ping.machine.ts';
import { allClaims } from '../../src/domain/claims.ts';
import type { ApplicationListRow } from '../../src/schemas/applications.schema.ts';
import { defineMachineModel } from './machine-model.ts';

const never = <T, I = unknown>() => fromPromise<T, I>(() => new Promise<T>(() => {}));

export const sampleRow: ApplicationListRow = {
  ApplicationID: 1042,
  ApplicationGuid: '0b8f3f52-5d0e-4d7e-9a43-6f1f5d1c0a42',
  AccountName: 'Smith Family Trust',
  PrimaryEmail: 'jo.smith@example.com',
  SubBrandName: 'Premium',
  ProductDisplayNameList: ['Cash Account', 'Managed Fund'],
  ProductDictionary: [
    { Name: 'Cash Account', Value: 'CASH' },
    { Name: 'Managed Fund', Value: 'MF' },
  ],
  ExternalID: 'EXT-1042',
  AccountNumber: '',
  DateCreatedTimestamp: 1_760_000_000,
  DateCompletedTimestamp: -1,
  LastDocumentUploadTimestamp: null,
  ApplicationType: 'Trust',
  ShortApplicationType: 'TR',
  PromoCode: '',
  InvestmentAmount: 250000,
  Language: 'English',
  AdviserName: 'Olivia Owner',
  ClientName: 'Jo Smith',
  LowDocStatus: '',
  DocumentCount: 2,
  UserUploadCount: 0,
  ApplicationModeCode: 'Pin',
  Status: 'Primary edit',
  PercentageComplete: 40,
  AssigneeDisplayName: '',
  Label: '',
  SystemLabel: '',
  AssigneeUserId: null,
};

const filtered = { ...defaultListQuery, status: ['Complete'] };

/**
 * The list with inert actors (the child dialogs are their own models: cancel-applications and
 * new-application). Context that guards read through several steps is part of the vertex: whether
 * the Filters modal has a selection.
 */
export default defineMachineModel({
  name: 'application-list',
  machine: applicationListMachine.provide({
    actors: {
      loadList: never(),
      loadColumns: never(),
      loadFilterOptions: never(),
      exportApplications: never(),
      // The children, inert too; their own paths are in their models.
      ping: pingMachine.provide({ actors: { ping: never() } }),
      cancelApplications: cancelApplicationsMachine.provide({ actors: { cancelApplications: never() } }),
      newApplication: newApplicationMachine.provide({ actors: { createApplication: never() } }),
      newApplicationOnBehalf: newApplicationOnBehalfMachine.provide({
        actors: { loadOwners: never(), createOnBehalf: never() },
      }),
    },
    // The input has every claim, which always picks the owner picker; to walk both New paths, the
    // samples say which claim set they stand for (the claim rule itself: tests/unit/list-rules.test.ts).
    guards: {
      createsOnBehalf: ({ event }) => 'onBehalf' in event && event.onBehalf === true,
      createsDirectly: ({ event }) => 'onBehalf' in event && event.onBehalf === false,
    },
    actions: {
      restoreViewPreference: () => {},
      storeViewPreference: () => {},
    },
  }),
  input: { scope: 'my', claims: allClaims, width: 1440 },
  contextKey: (snapshot) => ({ draft: hasFilterSelection(snapshot.context.filterDraft) }),
  events: [
    { type: 'query.changed', query: defaultListQuery, view: undefined },
    { type: 'query.changed', query: filtered, view: 'email' },
    { type: 'query.invalid', message: 'pageNo: must be a whole number from 1' },
    { type: 'xstate.done.actor.loadList', output: { Applications: [sampleRow], MaxPage: 1, TotalRows: 1 } },
    { type: 'xstate.error.actor.loadList', error: new Error('network down') },
    { type: 'xstate.done.actor.loadColumns', output: ['ID', 'AccountName', 'Status', 'Actions'] },
    { type: 'xstate.error.actor.loadColumns', error: new Error('forbidden') },
    {
      type: 'xstate.done.actor.loadFilterOptions',
      output: { status: [], subBrand: [], assignee: [], label: [], sysLabel: [], products: [] },
    },
    { type: 'search.submit', text: ' smith ' },
    { type: 'sort.change', column: 'Status' },
    { type: 'filter.remove', key: 'status' },
    { type: 'filters.change', key: 'status', values: ['Complete'] },
    { type: 'selection.change', guids: [sampleRow.ApplicationGuid] },
    { type: 'row.activate', guid: sampleRow.ApplicationGuid },
    { type: 'application.new', onBehalf: true },
    { type: 'application.new', onBehalf: false },
    { type: 'cancel.open', guids: [sampleRow.ApplicationGuid] },
    { type: 'xstate.done.actor.cancelApplications', output: { cancelledAny: true } },
    { type: 'xstate.done.actor.cancelApplications', output: { cancelledAny: false } },
    { type: 'xstate.done.actor.newApplication', output: { url: 'https://forms.demo.test/application/77' } },
    { type: 'xstate.done.actor.newApplication', output: { url: undefined } },
    { type: 'xstate.done.actor.newApplicationOnBehalf', output: { url: 'https://forms.demo.test/application/78' } },
    { type: 'xstate.done.actor.newApplicationOnBehalf', output: { url: undefined } },
    { type: 'xstate.done.actor.exportApplications' },
    { type: 'xstate.error.actor.exportApplications', error: new Error('network down') },
    { type: 'view.select', view: 'email' },
    { type: 'viewport.resized', width: 1024 },
  ],
});
