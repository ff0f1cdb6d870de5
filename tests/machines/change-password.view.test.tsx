// @vitest-environment jsdom
import { render } from '@testing-library/react';
import { createActor } from 'xstate';
import { ChangePasswordModal } from '../../src/views/shell/change-password-modal.tsx';
import model from './change-password.model.ts';
import { describeViewPaths } from './view-paths.tsx';

describeViewPaths(model, ({ machine, input, clock }) => {
  const dialog = createActor(machine, { input, clock }).start();
  render(<ChangePasswordModal dialog={dialog} />);
  return dialog;
});
