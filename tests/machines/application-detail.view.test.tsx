// @vitest-environment jsdom
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { AnyActorRef } from 'xstate';
import {
  ApplicationDetailContext,
  type ApplicationDetailInput,
} from '../../src/machines/application-detail.machine.ts';
import { ApplicationDetailScreen } from '../../src/views/applications/detail/application-detail-page.tsx';
import model from './application-detail.model.ts';
import { describeViewPaths } from './view-paths.tsx';

/** The model's inputs are detail inputs; checked rather than cast. */
function isDetailInput(input: unknown): input is ApplicationDetailInput {
  return typeof input === 'object' && input !== null && 'applicationId' in input && 'claims' in input;
}

describeViewPaths(model, ({ machine, input, clock }) => {
  if (!isDetailInput(input)) throw new Error('the detail model gives a detail input');
  let detail: AnyActorRef | undefined;
  function Capture() {
    detail = ApplicationDetailContext.useActorRef();
    return null;
  }
  render(
    <MemoryRouter initialEntries={[`/application/${input.applicationId}?from=all`]}>
      <ApplicationDetailContext.Provider logic={machine} options={{ input, clock }}>
        <Capture />
        <ApplicationDetailScreen applicationId={input.applicationId} />
      </ApplicationDetailContext.Provider>
    </MemoryRouter>,
  );
  if (!detail) throw new Error('the detail machine did not start');
  return detail;
});
