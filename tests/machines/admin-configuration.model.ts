import { expect } from 'vitest';
import { fromPromise, type AnyMachineSnapshot } from 'xstate';
import { adminConfigurationMachine } from '../../src/machines/admin-configuration.machine.ts';
import { defineMachineModel, type SampleEvent } from './machine-model.ts';

const never = <T, I = unknown>() => fromPromise<T, I>(() => new Promise<T>(() => {}));

const busy = (snapshot: AnyMachineSnapshot) => expect(snapshot.hasTag('busy')).toBe(true);
const viewable = (columns: readonly { ColumnName: string; Viewable: boolean }[], name: string) =>
  columns.find((column) => column.ColumnName === name)?.Viewable;
const succeeded = ({ output }: SampleEvent) =>
  typeof output === 'object' && output !== null && 'Success' in output && output.Success === true;

export default defineMachineModel({
  name: 'admin-configuration',
  machine: adminConfigurationMachine.provide({
    actors: { loadColumns: never(), saveColumns: never(), loadRows: never(), saveRows: never() },
  }),
  events: [
    {
      type: 'xstate.done.actor.loadColumns',
      output: [
        { ColumnName: 'ID', Description: 'Application ID (always shown)', Viewable: true },
        { ColumnName: 'Owner', Description: 'Adviser who owns the application', Viewable: true },
      ],
    },
    { type: 'xstate.error.actor.loadColumns', error: new Error('network down') },
    { type: 'column.toggle', name: 'Owner', viewable: false },
    // A fixed column (AM §2: ID, Email, AccountName, Status) cannot be switched off.
    { type: 'column.toggle', name: 'ID', viewable: false },
    { type: 'xstate.done.actor.saveColumns', output: { Success: true, Message: '' } },
    { type: 'xstate.done.actor.saveColumns', output: { Success: false, Message: 'Invalid column' } },
    { type: 'xstate.error.actor.saveColumns', error: new Error('network down') },
    {
      type: 'xstate.done.actor.loadRows',
      output: [
        { ApplicationDetailRowName: 'Mode', Description: 'Signing mode', Viewable: true },
        { ApplicationDetailRowName: 'TimeToComplete', Description: 'Time to Complete', Viewable: true },
      ],
    },
    { type: 'xstate.error.actor.loadRows', error: new Error('network down') },
    { type: 'row.toggle', name: 'Mode', viewable: false },
    { type: 'xstate.done.actor.saveRows', output: { Success: true, Message: '' } },
    { type: 'xstate.done.actor.saveRows', output: { Success: false, Message: 'Invalid row' } },
    { type: 'xstate.error.actor.saveRows', error: new Error('network down') },
  ],
  expectations: {
    states: {
      'columns.loading': busy,
      'columns.failed': (snapshot) => expect(snapshot.context.columns).toEqual([]),
      'columns.editing': (snapshot) => expect(snapshot.context.columns).toHaveLength(2),
      'columns.saving': busy,
      'rows.loading': busy,
      'rows.failed': (snapshot) => expect(snapshot.context.rows).toEqual([]),
      'rows.editing': (snapshot) => expect(snapshot.context.rows).toHaveLength(2),
      'rows.saving': busy,
    },
    transitions: {
      'columns.loading + xstate.done.actor.loadColumns': ({ after }) => expect(viewable(after.context.columns, 'Owner')).toBe(true),
      'columns.loading + xstate.error.actor.loadColumns': ({ after }) => expect(after.matches({ columns: 'failed' })).toBe(true),
      'columns.failed + columns.retry': ({ started }) => expect(Object.keys(started)).toEqual(['loadColumns']),
      'columns.editing + column.toggle': ({ event, before, after }) => {
        const name = String(event.name);
        // ID stays shown whatever is asked; Owner follows the switch and clears the last outcome.
        expect(viewable(after.context.columns, name)).toBe(name === 'ID' ? viewable(before.context.columns, name) : false);
        if (name !== 'ID') expect(after.context.columnsOutcome).toBeUndefined();
        // Only the switched column changes.
        const others = (columns: readonly { ColumnName: string }[]) => columns.filter((column) => column.ColumnName !== name);
        expect(others(after.context.columns)).toEqual(others(before.context.columns));
      },
      'columns.editing + columns.save': ({ before, started }) =>
        expect(started).toEqual({ saveColumns: { columns: before.context.columns } }),
      // AM §2/§8: 'Successfully saved' and the data reloads, or 'Saving failed' and the edits stay.
      'columns.saving + xstate.done.actor.saveColumns': ({ event, after }) =>
        expect(after.context.columnsOutcome).toBe(succeeded(event) ? 'saved' : 'failed'),
      'columns.saving + xstate.error.actor.saveColumns': ({ after }) => {
        expect(after.context.columnsOutcome).toBe('failed');
        expect(after.matches({ columns: 'editing' })).toBe(true);
      },
      'rows.loading + xstate.done.actor.loadRows': ({ after }) =>
        expect(after.context.rows.map((row: { ApplicationDetailRowName: string }) => row.ApplicationDetailRowName)).toEqual(['Mode', 'TimeToComplete']),
      'rows.loading + xstate.error.actor.loadRows': ({ after }) => expect(after.matches({ rows: 'failed' })).toBe(true),
      'rows.failed + rows.retry': ({ started }) => expect(Object.keys(started)).toEqual(['loadRows']),
      'rows.editing + row.toggle': ({ before, after }) => {
        // Mode is switched off; the other row stays as it was.
        expect(after.context.rows.map((row: { Viewable: boolean }) => row.Viewable)).toEqual([false, before.context.rows[1]?.Viewable]);
        expect(after.context.rowsOutcome).toBeUndefined();
      },
      'rows.editing + rows.save': ({ before, started }) => expect(started).toEqual({ saveRows: { rows: before.context.rows } }),
      'rows.saving + xstate.done.actor.saveRows': ({ event, after }) => {
        expect(after.context.rowsOutcome).toBe(succeeded(event) ? 'saved' : 'failed');
        expect(after.matches({ rows: succeeded(event) ? 'loading' : 'editing' })).toBe(true);
      },
      'rows.saving + xstate.error.actor.saveRows': ({ after }) => {
        expect(after.context.rowsOutcome).toBe('failed');
        expect(after.matches({ rows: 'editing' })).toBe(true);
      },
    },
  },
});
