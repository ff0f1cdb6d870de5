import { fromPromise } from 'xstate';
import { adminConfigurationMachine } from '../../src/machines/admin-configuration.machine.ts';
import { defineMachineModel } from './machine-model.ts';

const never = <T, I = unknown>() => fromPromise<T, I>(() => new Promise<T>(() => {}));

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
    { type: 'xstate.done.actor.saveColumns', output: { Success: true, Message: '' } },
    { type: 'xstate.done.actor.saveColumns', output: { Success: false, Message: 'Invalid column' } },
    { type: 'xstate.error.actor.saveColumns', error: new Error('network down') },
    {
      type: 'xstate.done.actor.loadRows',
      output: [{ ApplicationDetailRowName: 'Mode', Description: 'Signing mode', Viewable: true }],
    },
    { type: 'xstate.error.actor.loadRows', error: new Error('network down') },
    { type: 'row.toggle', name: 'Mode', viewable: false },
    { type: 'xstate.done.actor.saveRows', output: { Success: true, Message: '' } },
    { type: 'xstate.done.actor.saveRows', output: { Success: false, Message: 'Invalid row' } },
    { type: 'xstate.error.actor.saveRows', error: new Error('network down') },
  ],
});
