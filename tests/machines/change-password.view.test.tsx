// @vitest-environment jsdom
import { ChangePasswordModal } from '../../src/views/shell/change-password-modal.tsx';
import model from './change-password.model.ts';
import { describeViewPaths } from './view-paths.tsx';

describeViewPaths(model, (actor) => <ChangePasswordModal dialog={actor} />);
