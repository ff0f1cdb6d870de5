import { createActorContext } from '@xstate/react';
import { assign, fromPromise, setup } from 'xstate';
import { fixedListColumns } from '../domain/list-columns.ts';
import type { ColumnConfigItem, RowConfigItem, SaveResult } from '../schemas/admin.schema.ts';
import {
  columnConfiguration,
  rowConfiguration,
  saveColumnConfiguration,
  saveRowConfiguration,
} from '../services/admin.service.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

/** What the last Save of a table ended with (AM §8): 'Successfully saved' or 'Saving failed'. */
export type SaveOutcome = 'saved' | 'failed' | undefined;

export const saveOutcomeTexts = { saved: 'Successfully saved', failed: 'Saving failed' } as const;

export interface AdminConfigurationContext {
  columns: ColumnConfigItem[];
  rows: RowConfigItem[];
  columnsOutcome: SaveOutcome;
  rowsOutcome: SaveOutcome;
}

export type AdminConfigurationEvent =
  | { type: 'column.toggle'; name: string; viewable: boolean }
  | { type: 'columns.save' }
  | { type: 'columns.retry' }
  | { type: 'row.toggle'; name: string; viewable: boolean }
  | { type: 'rows.save' }
  | { type: 'rows.retry' };

/** AM §2: ID, Email, AccountName and Status are always visible and cannot be toggled. */
export const isFixedColumn = (name: string): boolean => fixedListColumns.some((column) => column === name);

/**
 * The tenant configuration page (AM §2 Admin configuration, §7, §8): the Column configuration and
 * the Application Detail Row configuration, each loaded, edited and saved on its own; after a save
 * the table reloads from the server.
 */
export const adminConfigurationMachine = setup({
  types: typesOf<{ context: AdminConfigurationContext; events: AdminConfigurationEvent; tags: 'busy' }>(),
  actors: {
    loadColumns: fromPromise<ColumnConfigItem[]>(() => columnConfiguration()),
    saveColumns: fromPromise<SaveResult, { columns: ColumnConfigItem[] }>(({ input }) =>
      saveColumnConfiguration(input.columns),
    ),
    loadRows: fromPromise<RowConfigItem[]>(() => rowConfiguration()),
    saveRows: fromPromise<SaveResult, { rows: RowConfigItem[] }>(({ input }) => saveRowConfiguration(input.rows)),
  },
  guards: {
    isToggleableColumn: (_, params: { name: string }) => !isFixedColumn(params.name),
    isSaved: (_, params: { result: SaveResult }) => params.result.Success,
  },
  actions: {
    assignColumns: assign((_, params: { columns: ColumnConfigItem[] }) => ({ columns: params.columns })),
    toggleColumn: assign(({ context }, params: { name: string; viewable: boolean }) => ({
      columns: context.columns.map((column) =>
        column.ColumnName === params.name ? { ...column, Viewable: params.viewable } : column,
      ),
      columnsOutcome: undefined,
    })),
    assignColumnsOutcome: assign((_, params: { outcome: SaveOutcome }) => ({ columnsOutcome: params.outcome })),
    assignRows: assign((_, params: { rows: RowConfigItem[] }) => ({ rows: params.rows })),
    toggleRow: assign(({ context }, params: { name: string; viewable: boolean }) => ({
      rows: context.rows.map((row) =>
        row.ApplicationDetailRowName === params.name ? { ...row, Viewable: params.viewable } : row,
      ),
      rowsOutcome: undefined,
    })),
    assignRowsOutcome: assign((_, params: { outcome: SaveOutcome }) => ({ rowsOutcome: params.outcome })),
  },
}).createMachine({
  id: 'adminConfiguration',
  type: 'parallel',
  context: { columns: [], rows: [], columnsOutcome: undefined, rowsOutcome: undefined },
  states: {
    columns: {
      description: 'Column configuration table',
      initial: 'loading',
      states: {
        loading: {
          description: 'Column configuration: loading the list columns',
          tags: ['busy'],
          invoke: {
            id: 'loadColumns',
            src: 'loadColumns',
            onDone: {
              target: 'editing',
              actions: { type: 'assignColumns', params: ({ event }) => ({ columns: event.output }) },
            },
            onError: { target: 'failed' },
          },
        },
        failed: {
          description: 'Column configuration could not be loaded: Retry',
          on: { 'columns.retry': { target: 'loading' } },
        },
        editing: {
          description:
            'Column configuration: Enabled, name and description per column (ID, Email, AccountName, Status cannot be toggled) and Save',
          on: {
            'column.toggle': {
              guard: { type: 'isToggleableColumn', params: ({ event }) => ({ name: event.name }) },
              actions: {
                type: 'toggleColumn',
                params: ({ event }) => ({ name: event.name, viewable: event.viewable }),
              },
            },
            'columns.save': { target: 'saving' },
          },
        },
        saving: {
          description: 'Saving the column configuration',
          tags: ['busy'],
          invoke: {
            id: 'saveColumns',
            src: 'saveColumns',
            input: ({ context }) => ({ columns: context.columns }),
            onDone: [
              {
                guard: { type: 'isSaved', params: ({ event }) => ({ result: event.output }) },
                target: 'loading',
                actions: { type: 'assignColumnsOutcome', params: { outcome: 'saved' } },
              },
              { target: 'editing', actions: { type: 'assignColumnsOutcome', params: { outcome: 'failed' } } },
            ],
            onError: { target: 'editing', actions: { type: 'assignColumnsOutcome', params: { outcome: 'failed' } } },
          },
        },
      },
    },
    rows: {
      description: 'Application Detail Row configuration table',
      initial: 'loading',
      states: {
        loading: {
          description: 'Application Detail Row configuration: loading the detail rows',
          tags: ['busy'],
          invoke: {
            id: 'loadRows',
            src: 'loadRows',
            onDone: {
              target: 'editing',
              actions: { type: 'assignRows', params: ({ event }) => ({ rows: event.output }) },
            },
            onError: { target: 'failed' },
          },
        },
        failed: {
          description: 'Application Detail Row configuration could not be loaded: Retry',
          on: { 'rows.retry': { target: 'loading' } },
        },
        editing: {
          description: 'Application Detail Row configuration: Enabled, name and description per row, and Save',
          on: {
            'row.toggle': {
              actions: { type: 'toggleRow', params: ({ event }) => ({ name: event.name, viewable: event.viewable }) },
            },
            'rows.save': { target: 'saving' },
          },
        },
        saving: {
          description: 'Saving the detail row configuration',
          tags: ['busy'],
          invoke: {
            id: 'saveRows',
            src: 'saveRows',
            input: ({ context }) => ({ rows: context.rows }),
            onDone: [
              {
                guard: { type: 'isSaved', params: ({ event }) => ({ result: event.output }) },
                target: 'loading',
                actions: { type: 'assignRowsOutcome', params: { outcome: 'saved' } },
              },
              { target: 'editing', actions: { type: 'assignRowsOutcome', params: { outcome: 'failed' } } },
            ],
            onError: { target: 'editing', actions: { type: 'assignRowsOutcome', params: { outcome: 'failed' } } },
          },
        },
      },
    },
  },
});

export const AdminConfigurationContext = createActorContext(adminConfigurationMachine);

/** The words the diagrams and QA plans print (docs/testing.md, "Statechart labels"). */
export const statechartLabels = {
  purpose:
    'The tenant configuration page: shows, edits and saves which list columns and which application detail rows are enabled.',
  spec: ['AM §2', 'AM §7', 'AM §8'],
  actors: {
    loadColumns: { does: 'Loads the column configuration', done: 'columns loaded', failed: 'columns could not be loaded' },
    saveColumns: { does: 'Saves the column configuration', done: 'server answered the save', failed: 'saving failed' },
    loadRows: { does: 'Loads the detail row configuration', done: 'rows loaded', failed: 'rows could not be loaded' },
    saveRows: { does: 'Saves the detail row configuration', done: 'server answered the save', failed: 'saving failed' },
  },
  guards: {
    isToggleableColumn: 'the column may be switched (not ID, Email, AccountName or Status)',
    isSaved: 'the server saved it',
  },
  events: {
    'column.toggle': 'a column switched on or off',
    'columns.save': 'Save chosen (columns)',
    'columns.retry': 'Retry chosen (columns)',
    'row.toggle': 'a detail row switched on or off',
    'rows.save': 'Save chosen (detail rows)',
    'rows.retry': 'Retry chosen (detail rows)',
  },
} satisfies MachineLabels<typeof adminConfigurationMachine>;
