// @vitest-environment jsdom
import { act, render } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { AnyActorRef } from 'xstate';
import { ApplicationListContext, type ApplicationListInput } from '../../src/machines/application-list.machine.ts';
import { ApplicationList } from '../../src/views/applications/application-list-page.tsx';
import model from './application-list.model.ts';
import { describeViewPaths } from './view-paths.tsx';

/** The model's inputs are list inputs; checked rather than cast. */
function isListInput(input: unknown): input is ApplicationListInput {
  return typeof input === 'object' && input !== null && 'scope' in input && 'claims' in input && 'width' in input;
}

describeViewPaths(model, ({ machine, input, clock }) => {
  if (!isListInput(input)) throw new Error('the list model gives a list input');
  let list: AnyActorRef | undefined;
  function Capture() {
    list = ApplicationListContext.useActorRef();
    return null;
  }
  render(
    <MemoryRouter>
      <ApplicationListContext.Provider logic={machine} options={{ input, clock }}>
        <Capture />
        <ApplicationList />
      </ApplicationListContext.Provider>
    </MemoryRouter>,
  );
  if (!list) throw new Error('the list machine did not start');
  const started = list;
  // The tenant's columns arrive first (the table waits for them); a root transition, so the path's
  // states are unchanged.
  act(() => started.send({ type: 'xstate.done.actor.loadColumns', output: ['ID', 'AccountName', 'Status', 'Actions'] }));
  return started;
});
