// @vitest-environment jsdom
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { AnyActorRef } from 'xstate';
import { SessionContext } from '../../src/machines/session.machine.ts';
import { SessionGate } from '../../src/views/shell/session-root.tsx';
import model from './session.model.ts';
import { describeViewPaths } from './view-paths.tsx';

/** Hands the Provider's actor to the test, which then drives it step by step. */
function Capture({ onActor }: { onActor: (actor: AnyActorRef) => void }) {
  onActor(SessionContext.useActorRef());
  return null;
}

describeViewPaths(model, ({ machine, input, clock }) => {
  let session: AnyActorRef | undefined;
  render(
    <SessionContext.Provider logic={machine} options={{ input, clock }}>
      <Capture onActor={(actor) => (session = actor)} />
      <MemoryRouter initialEntries={['/list']}>
        <Routes>
          <Route element={<SessionGate />}>
            <Route path="/list" element={<p>Shell routes</p>} />
          </Route>
          <Route path="/timeout" element={<p>Timeout page</p>} />
        </Routes>
      </MemoryRouter>
    </SessionContext.Provider>,
  );
  if (!session) throw new Error('the session actor was not provided');
  return session;
});
