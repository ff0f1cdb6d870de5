import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { defaultListQuery, type ApplicationListQuery } from '../../src/domain/application-query.ts';
import type { ListScope } from '../../src/domain/list-view.ts';
import { allClaims } from '../../src/domain/claims.ts';
import { applicationListMachine } from '../../src/machines/application-list.machine.ts';
import { cancelApplicationsMachine } from '../../src/machines/cancel-applications.machine.ts';
import { pingMachine } from '../../src/machines/ping.machine.ts';
import type { ApplicationListResponse } from '../../src/schemas/applications.schema.ts';
import { sampleRow } from '../machines/application-list.model.ts';

const never = <T, I = unknown>() => fromPromise<T, I>(() => new Promise<T>(() => {}));

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const page = (id: number): ApplicationListResponse => ({
  Applications: [{ ...sampleRow, ApplicationID: id, ApplicationGuid: `guid-${id}` }],
  MaxPage: 5,
  TotalRows: 100,
});

/** A list whose loads answer only when the test says so, by page number. */
function listWithControlledLoads(extra: { pings?: () => void } = {}) {
  const loads = new Map<number, ReturnType<typeof deferred<ApplicationListResponse>>>();
  const requested: ApplicationListQuery[] = [];
  const machine = applicationListMachine.provide({
    actors: {
      loadList: fromPromise<ApplicationListResponse, { scope: ListScope; query: ApplicationListQuery }>(({ input }) => {
        requested.push(input.query);
        const load = deferred<ApplicationListResponse>();
        loads.set(input.query.pageNo, load);
        return load.promise;
      }),
      loadColumns: never(),
      loadFilterOptions: never(),
      cancelApplications: cancelApplicationsMachine.provide({
        actors: {
          cancelApplications: fromPromise<
            { Results: Array<{ ApplicationGuid: string; Success: boolean }> },
            { guids: string[] }
          >(async ({ input }) => ({ Results: input.guids.map((guid) => ({ ApplicationGuid: guid, Success: true })) })),
        },
      }),
      ping: pingMachine.provide({
        actors: {
          ping: fromPromise<{ Success: boolean }>(async () => {
            extra.pings?.();
            return { Success: true };
          }),
        },
      }),
    },
    actions: { restoreViewPreference: () => {}, storeViewPreference: () => {} },
  });
  const actor = createActor(machine, { input: { scope: 'my', claims: allClaims, width: 1440 } });
  const navigations: string[] = [];
  actor.on('navigate', (event) => navigations.push(event.to));
  actor.start();
  return { actor, loads, requested, navigations };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('application list machine', () => {
  it('never lets a stale answer overwrite a newer one', async () => {
    const { actor, loads } = listWithControlledLoads();
    actor.send({ type: 'query.changed', query: { ...defaultListQuery, pageNo: 1 }, view: undefined });
    actor.send({ type: 'query.changed', query: { ...defaultListQuery, pageNo: 2 }, view: undefined });
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);

    // The first (now stale) request answers first: nothing changes, the newer one is awaited.
    loads.get(1)?.resolve(page(1));
    await settle();
    expect(actor.getSnapshot().matches({ list: 'loading' })).toBe(true);
    expect(actor.getSnapshot().context.rows).toEqual([]);

    loads.get(2)?.resolve(page(2));
    await settle();
    expect(actor.getSnapshot().matches({ list: 'succeeded' })).toBe(true);
    expect(actor.getSnapshot().context.rows.map((row) => row.ApplicationID)).toEqual([2]);
    actor.stop();
  });

  it('keeps the newer answer when the older one arrives after it', async () => {
    const { actor, loads } = listWithControlledLoads();
    actor.send({ type: 'query.changed', query: { ...defaultListQuery, pageNo: 1 }, view: undefined });
    actor.send({ type: 'query.changed', query: { ...defaultListQuery, pageNo: 2 }, view: undefined });
    loads.get(2)?.resolve(page(2));
    await settle();
    loads.get(1)?.resolve(page(1));
    await settle();
    expect(actor.getSnapshot().context.rows.map((row) => row.ApplicationID)).toEqual([2]);
    actor.stop();
  });

  it('does not reload for the same address, and reloads on refresh', async () => {
    const { actor, loads, requested } = listWithControlledLoads();
    actor.send({ type: 'query.changed', query: defaultListQuery, view: undefined });
    loads.get(1)?.resolve(page(1));
    await settle();
    actor.send({ type: 'query.changed', query: defaultListQuery, view: 'email' });
    expect(requested).toHaveLength(1);
    expect(actor.getSnapshot().context.viewPreference).toBe('email');
    actor.send({ type: 'list.refresh' });
    expect(requested).toHaveLength(2);
    actor.stop();
  });

  it('leaves an unreadable address for any readable one, the list shown before it included', async () => {
    // Opened on a bad address: the link to the unfiltered list (the starting query) loads it.
    const opened = listWithControlledLoads();
    opened.actor.send({ type: 'query.invalid', message: 'sortBy: unknown column' });
    expect(opened.actor.getSnapshot().matches({ list: 'invalidAddress' })).toBe(true);
    opened.actor.send({ type: 'query.changed', query: defaultListQuery, view: undefined });
    expect(opened.actor.getSnapshot().matches({ list: 'loading' })).toBe(true);
    expect(opened.requested).toEqual([defaultListQuery]);
    opened.actor.stop();

    // A list, then a bad address, then Back to the same list: it shows again.
    const { actor, loads, requested } = listWithControlledLoads();
    const second = { ...defaultListQuery, pageNo: 2 };
    actor.send({ type: 'query.changed', query: second, view: undefined });
    loads.get(2)?.resolve(page(2));
    await settle();
    actor.send({ type: 'query.invalid', message: 'pageNo: must be at least 1' });
    actor.send({ type: 'query.changed', query: second, view: undefined });
    loads.get(2)?.resolve(page(2));
    await settle();
    expect(actor.getSnapshot().matches({ list: 'succeeded' })).toBe(true);
    expect(requested).toEqual([second, second]);
    actor.stop();
  });

  it('asks for page 1 on a change of sort, search or filters, and clears the selection on the new address', async () => {
    const { actor, loads, navigations } = listWithControlledLoads();
    actor.send({ type: 'query.changed', query: { ...defaultListQuery, pageNo: 3 }, view: undefined });
    loads.get(3)?.resolve(page(3));
    await settle();
    actor.send({ type: 'selection.change', guids: ['guid-3'] });
    expect(actor.getSnapshot().context.selection).toEqual(['guid-3']);

    actor.send({ type: 'sort.change', column: 'Status' });
    actor.send({ type: 'sort.change', column: 'ID' });
    actor.send({ type: 'search.submit', text: '  smith ' });
    actor.send({ type: 'search.submit', text: '' });
    actor.send({ type: 'filters.open' });
    actor.send({ type: 'filters.change', key: 'assignee', values: [''] });
    actor.send({ type: 'filters.apply' });
    expect(navigations).toEqual([
      '/list?sortBy=Status',
      '/list?sortType=asc',
      '/list?q=smith',
      '/list?assignee=%5B%22%22%5D',
    ]);

    // The address changes (the page follows the navigation): the selection goes.
    actor.send({ type: 'query.changed', query: { ...defaultListQuery, sortBy: 'Status' }, view: undefined });
    expect(actor.getSnapshot().context.selection).toEqual([]);
    actor.stop();
  });

  it('refreshes the list and clears the selection after a cancel', async () => {
    const { actor, loads, requested } = listWithControlledLoads();
    actor.send({ type: 'query.changed', query: defaultListQuery, view: undefined });
    loads.get(1)?.resolve(page(1));
    await settle();
    actor.send({ type: 'selection.change', guids: ['guid-1'] });
    actor.send({ type: 'cancel.open', guids: ['guid-1'] });
    expect(actor.getSnapshot().matches({ activity: 'cancelling' })).toBe(true);
    const dialog = actor.getSnapshot().children.cancelApplications;
    dialog?.send({ type: 'cancel.confirm' });
    await settle();
    expect(dialog?.getSnapshot().context.outcomes).toEqual({ 'guid-1': true });
    // The list refreshes once the dialog is closed.
    expect(requested).toHaveLength(1);
    dialog?.send({ type: 'dialog.close' });
    expect(actor.getSnapshot().matches({ activity: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.selection).toEqual([]);
    expect(actor.getSnapshot().matches({ list: 'loading' })).toBe(true);
    expect(requested).toHaveLength(2);
    actor.stop();
  });

  it('offers no selection without app.cancel', async () => {
    const machine = applicationListMachine.provide({
      actors: {
        loadList: fromPromise(async () => page(1)),
        loadColumns: never(),
        loadFilterOptions: never(),
        ping: pingMachine.provide({ actors: { ping: never() } }),
      },
      actions: { restoreViewPreference: () => {}, storeViewPreference: () => {} },
    });
    const actor = createActor(machine, { input: { scope: 'my', claims: ['view.myapps'], width: 1440 } }).start();
    actor.send({ type: 'query.changed', query: defaultListQuery, view: undefined });
    await settle();
    expect(actor.getSnapshot().can({ type: 'selection.change', guids: ['guid-1'] })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'cancel.open', guids: ['guid-1'] })).toBe(false);
    actor.stop();
  });
});

describe('timers of the list', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('follows the window width 150 ms after the last resize (AM §9)', () => {
    const { actor } = listWithControlledLoads();
    actor.send({ type: 'viewport.resized', width: 1000 });
    vi.advanceTimersByTime(100);
    actor.send({ type: 'viewport.resized', width: 1100 });
    vi.advanceTimersByTime(149);
    expect(actor.getSnapshot().context.width).toBe(1440);
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().context.width).toBe(1100);
    actor.stop();
  });

  it('pings the session every 120000 ms while the list lives, and stops with it (AM §4)', async () => {
    let pings = 0;
    const { actor } = listWithControlledLoads({ pings: () => (pings += 1) });
    await vi.advanceTimersByTimeAsync(119_999);
    expect(pings).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(pings).toBe(1);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(pings).toBe(2);
    actor.stop();
    await vi.advanceTimersByTimeAsync(360_000);
    expect(pings).toBe(2);
  });
});
