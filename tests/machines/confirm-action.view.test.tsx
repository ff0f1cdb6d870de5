// @vitest-environment jsdom
import { render } from '@testing-library/react';
import { createActor } from 'xstate';
import { ConfirmActionDialog } from '../../src/views/applications/detail/actions/confirm-action-modal.tsx';
import model from './confirm-action.model.ts';
import { describeViewPaths } from './view-paths.tsx';

describeViewPaths(model, ({ machine, input, clock }) => {
  const dialog = createActor(machine, { input, clock }).start();
  render(
    <ConfirmActionDialog
      dialog={dialog}
      texts={{ title: 'Confirm Action', question: <p>Run this step?</p>, confirmLabel: 'Confirm' }}
    />,
  );
  return dialog;
});
