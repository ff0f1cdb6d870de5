import { createActorContext } from '@xstate/react';
import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import type { CompanyVerificationRow, IndividualVerificationRow, VerificationService } from '../schemas/verifications.schema.ts';
import { verificationPageSize } from '../schemas/verifications.schema.ts';
import { numericPart, type VerificationsAddress } from '../domain/verifications.ts';
import { HttpError } from '../services/http.ts';
import { downloadReport, listVerifications, prefetchTypeForm, setRefCode, type VerificationList } from '../services/verifications.service.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

export interface VerificationListInput {
  /** SUV §2: the services the person's claims permit, Company before Individual. */
  services: readonly VerificationService[];
  /** The tab, page and keyword the address holds (issue 39 point 10); else the first tab's page 1. */
  address?: VerificationsAddress;
}

export interface VerificationListContext {
  services: readonly VerificationService[];
  service: VerificationService;
  page: number;
  /** The keyword the shown rows match ('' for none). */
  search: string;
  companyRows: CompanyVerificationRow[];
  individualRows: IndividualVerificationRow[];
  total: number;
  /** The record whose reference code is being edited, and the text typed. */
  refTarget: { id: string; service: VerificationService } | undefined;
  refInput: string;
  /** Why the reference code was not saved (the server's message, or that it could not be reached); '' for none. */
  refError: string;
}

export type VerificationListEvent =
  | { type: 'service.select'; service: VerificationService }
  | { type: 'page.next' }
  | { type: 'page.previous' }
  | { type: 'search.submit'; value: string }
  | { type: 'list.refresh' }
  | { type: 'report.download'; reportLink: string }
  | { type: 'refCode.open'; id: string; current: string }
  | { type: 'refCode.change'; value: string }
  | { type: 'refCode.confirm' }
  | { type: 'refCode.cancel' }
  | { type: 'wizard.prefetch' }
  | { type: 'address.change'; address: VerificationsAddress };

const lastPage = (total: number) => Math.max(1, Math.ceil(total / verificationPageSize));

/** The server's reason a reference code was refused (a 400's message), else that it was not saved. */
export function refCodeErrorText(error: unknown): string {
  const body = error instanceof HttpError && error.status === 400 ? error.body : undefined;
  const message = typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string' ? body.message : '';
  return message ? `The reference code was not saved: ${message.replace(/^ref_code: /, '')}.` : 'The reference code could not be saved. Please try again.';
}

/**
 * SUV §2 Verifications page: the list of one service (10 a page), its search, paging, refresh,
 * report downloads and the Add Reference Number modal. List and download failures are swallowed
 * (SUV §8: the list stays as it was), reported by the service wrapper.
 */
export const verificationListMachine = setup({
  types: typesOf<{
    context: VerificationListContext;
    events: VerificationListEvent;
    input: VerificationListInput;
    tags: 'busy';
    children: { download: 'downloadReport' };
  }>(),
  actors: {
    loadList: fromPromise<VerificationList, { service: VerificationService; page: number; search: string }>(({ input }) => listVerifications(input.service, input.page, input.search)),
    saveRefCode: fromPromise<unknown, { service: VerificationService; id: string; refCode: string }>(({ input }) => setRefCode(input.service, numericPart(input.id), input.refCode)),
    downloadReport: fromPromise<void, { reportLink: string; service: VerificationService }>(({ input }) => downloadReport(input.reportLink, input.service)),
  },
  guards: {
    hasNextPage: ({ context }) => context.page < lastPage(context.total),
    hasPreviousPage: ({ context }) => context.page > 1,
    isPermittedService: ({ context }, params: { service: VerificationService }) => context.services.includes(params.service),
    isPastLastPage: ({ context }, params: { total: number }) => context.page > lastPage(params.total),
  },
  actions: {
    assignService: assign((_, params: { service: VerificationService }) => ({ service: params.service, page: 1 })),
    // The address moved (Back, a link, a reload): its tab if permitted, its page and keyword.
    assignAddress: assign(({ context }, params: { address: VerificationsAddress }) => ({
      service: context.services.includes(params.address.service) ? params.address.service : (context.services[0] ?? 'Company'),
      page: params.address.page,
      search: params.address.search.trim(),
    })),
    assignSearch: assign((_, params: { value: string }) => ({ search: params.value.trim(), page: 1 })),
    nextPage: assign(({ context }) => ({ page: context.page + 1 })),
    // An address past the last page (a bookmark of a list since shortened) shows the last page.
    lastPageOf: assign((_, params: { total: number }) => ({ page: lastPage(params.total) })),
    keepPageInRange: assign(({ context }) => ({ page: Math.min(context.page, lastPage(context.total)) })),
    previousPage: assign(({ context }) => ({ page: context.page - 1 })),
    assignList: assign((_, params: { result: VerificationList }) =>
      params.result.service === 'Company'
        ? { companyRows: params.result.list.responses, individualRows: [], total: params.result.list.totalCount }
        : { individualRows: params.result.list.responses, companyRows: [], total: params.result.list.totalCount },
    ),
    openRefCode: assign(({ context }, params: { id: string; current: string }) => ({ refTarget: { id: params.id, service: context.service }, refInput: params.current, refError: '' })),
    assignRefInput: assign((_, params: { value: string }) => ({ refInput: params.value, refError: '' })),
    closeRefCode: assign({ refTarget: undefined, refInput: '', refError: '' }),
    assignRefError: assign((_, params: { error: unknown }) => ({ refError: refCodeErrorText(params.error) })),
    // Issue 29: the wizard's first form starts loading before the wizard opens (its own machine takes it).
    prefetchWizardForm: (_, _params: undefined) => prefetchTypeForm(),
    startDownload: enqueueActions(({ enqueue, context }, params: { reportLink: string }) => {
      enqueue.spawnChild('downloadReport', { id: 'download', input: { reportLink: params.reportLink, service: context.service } });
    }),
  },
}).createMachine({
  id: 'verificationList',
  initial: 'loading',
  context: ({ input }) => ({
    services: input.services,
    service: input.address && input.services.includes(input.address.service) ? input.address.service : (input.services[0] ?? 'Company'),
    page: input.address?.page ?? 1,
    search: input.address?.search.trim() ?? '',
    companyRows: [],
    individualRows: [],
    total: 0,
    refTarget: undefined,
    refInput: '',
    refError: '',
  }),
  on: {
    'service.select': { guard: { type: 'isPermittedService', params: ({ event }) => ({ service: event.service }) }, target: '.loading', actions: { type: 'assignService', params: ({ event }) => ({ service: event.service }) } },
    'search.submit': { target: '.loading', actions: { type: 'assignSearch', params: ({ event }) => ({ value: event.value }) } },
    'list.refresh': { target: '.loading' },
    'address.change': { target: '.loading', actions: { type: 'assignAddress', params: ({ event }) => ({ address: event.address }) } },
    'wizard.prefetch': { actions: 'prefetchWizardForm' },
  },
  states: {
    loading: {
      description: 'The page of rows loads (the rows shown stay until it answers)',
      tags: ['busy'],
      invoke: {
        id: 'loadList',
        src: 'loadList',
        input: ({ context }) => ({ service: context.service, page: context.page, search: context.search }),
        onDone: [
          {
            guard: { type: 'isPastLastPage', params: ({ event }) => ({ total: event.output.list.totalCount }) },
            target: 'loading',
            reenter: true,
            actions: { type: 'lastPageOf', params: ({ event }) => ({ total: event.output.list.totalCount }) },
          },
          { target: 'ready', actions: { type: 'assignList', params: ({ event }) => ({ result: event.output }) } },
        ],
        // SUV §8: swallowed; the list stays unchanged, on a page it has.
        onError: { target: 'ready', actions: 'keepPageInRange' },
      },
    },
    ready: {
      description: "The rows, 'from - to of total', previous and next; or the empty state with the keyword or the type",
      on: {
        'page.next': { guard: 'hasNextPage', target: 'loading', actions: 'nextPage' },
        'page.previous': { guard: 'hasPreviousPage', target: 'loading', actions: 'previousPage' },
        'report.download': { actions: { type: 'startDownload', params: ({ event }) => ({ reportLink: event.reportLink }) } },
        'refCode.open': { target: 'editingRefCode', actions: { type: 'openRefCode', params: ({ event }) => ({ id: event.id, current: event.current }) } },
      },
    },
    editingRefCode: {
      description: "Add Reference Number modal: 'Enter the reference number or code for this verification record.', Confirm and Cancel",
      on: {
        'refCode.change': { actions: { type: 'assignRefInput', params: ({ event }) => ({ value: event.value }) } },
        'refCode.confirm': { target: 'savingRefCode' },
        'refCode.cancel': { target: 'ready', actions: 'closeRefCode' },
      },
    },
    savingRefCode: {
      description: 'The reference code is saved, then the list reloads; a refusal keeps the modal open with its reason (issue 39 point 11)',
      tags: ['busy'],
      invoke: {
        id: 'saveRefCode',
        src: 'saveRefCode',
        input: ({ context }) => ({ service: context.refTarget?.service ?? context.service, id: context.refTarget?.id ?? '', refCode: context.refInput }),
        onDone: { target: 'loading', actions: 'closeRefCode' },
        onError: { target: 'editingRefCode', actions: { type: 'assignRefError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
  },
});

export const VerificationListContext = createActorContext(verificationListMachine);

export const statechartLabels = {
  purpose: 'List one kind of verification, 10 a page, with search, paging, downloads and reference codes (Verifications page)',
  spec: ['SUV §2', 'SUV §7', 'SUV §8', 'SUV §9'],
  actors: {
    loadList: { does: 'Loads a page (GET /{service}?Page&search)', done: 'page loaded', failed: 'load failed (swallowed)' },
    saveRefCode: { does: 'Saves the reference code (POST …/ref-code)', done: 'saved', failed: 'save failed' },
    downloadReport: { does: 'Downloads a report PDF', done: 'downloaded', failed: 'download failed (swallowed)' },
  },
  children: { download: { does: 'Downloads a report PDF', done: 'downloaded', failed: 'download failed (swallowed)' } },
  guards: {
    hasNextPage: 'a later page exists',
    hasPreviousPage: 'an earlier page exists',
    isPermittedService: 'the claims permit that service',
    isPastLastPage: 'the page asked for is past the last',
  },
  events: {
    'service.select': 'Company or Individual chosen',
    'page.next': 'next pressed',
    'page.previous': 'previous pressed',
    'search.submit': 'a keyword searched',
    'list.refresh': 'refresh pressed, or a modal closed after a change',
    'report.download': 'a row’s report download pressed',
    'refCode.open': 'a row’s reference code pressed',
    'refCode.change': 'the reference code typed',
    'refCode.confirm': 'Confirm pressed',
    'refCode.cancel': 'Cancel or Escape',
    'wizard.prefetch': 'New hovered or focused on the Individual tab (the wizard’s first form starts loading)',
    'address.change': 'the address moved to another tab, page or keyword (Back, a link)',
  },
} satisfies MachineLabels<typeof verificationListMachine>;
